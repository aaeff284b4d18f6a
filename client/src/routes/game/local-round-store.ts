import { create } from 'zustand';
import type { Draft, LocalAnswer } from './game-logic.ts';

/**
 * The one-screen interception round of a Local game (docs/rules.md#local):
 * each asked seat's answer while it is prepared, the seat last edited (the
 * shortcuts and the table's gaps answer for it), and the answers sent that the
 * game has not shown yet (one refused by the engine is told by name).
 */
interface LocalRoundState {
  draft: Draft;
  active: string | null;
  /** Seat id → the gap sent (null: "no"). */
  sent: Readonly<Record<string, number | null>>;
  setDraft(draft: Draft): void;
  setActive(active: string | null): void;
  markSent(answers: readonly LocalAnswer[]): void;
  forget(seatIds: readonly string[]): void;
  reset(): void;
}

export const useLocalRound = create<LocalRoundState>()((set) => ({
  draft: {},
  active: null,
  sent: {},
  setDraft: (draft) => set({ draft }),
  setActive: (active) => set({ active }),
  markSent: (answers) =>
    set((s) => {
      const draft = { ...s.draft };
      const sent = { ...s.sent };
      for (const a of answers) {
        delete draft[a.seat.id];
        sent[a.seat.id] = a.slot?.id ?? null;
      }
      return { draft, sent };
    }),
  forget: (seatIds) =>
    set((s) => {
      const sent = { ...s.sent };
      for (const id of seatIds) delete sent[id];
      return { sent };
    }),
  reset: () => set({ draft: {}, active: null, sent: {} }),
}));
