import { create } from 'zustand';

/**
 * The dispute dialog's state, shared by what opens it (the button on the
 * revealed card, Alt+Shift+D on any game screen) and the one dialog each
 * screen mounts: open or not, and the seat it disputes for (a Local game's
 * shared screen may dispute for any of its seats).
 */
export interface DisputeDialogState {
  open: boolean;
  /** The seat disputing (its player id). */
  seat: string | null;
  show(seat: string): void;
  close(): void;
}

export const useDisputeDialog = create<DisputeDialogState>()((set) => ({
  open: false,
  seat: null,
  show: (seat) => set({ open: true, seat }),
  close: () => set({ open: false }),
}));
