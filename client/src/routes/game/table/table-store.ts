import { create } from 'zustand';
import type { Choice } from '../game-logic.ts';

/**
 * What the table's gaps show beyond the choice itself (which is the game
 * store's, shared with the radio buttons): the entry of the radio list that
 * has the keyboard focus (its gap shows the focus ring while the list is
 * visually hidden) and the gap a dragged card hovers over (it grows).
 */
interface TableState {
  /** The radio with the keyboard focus: a slot id, 'none', or undefined when the focus is elsewhere. */
  focused: Choice | undefined;
  /** The gap the mystery card is dragged over, or null. */
  over: number | null;
  dragging: boolean;
  setFocused(focused: Choice | undefined): void;
  setDrag(dragging: boolean, over: number | null): void;
}

export const useTable = create<TableState>()((set) => ({
  focused: undefined,
  over: null,
  dragging: false,
  setFocused: (focused) => set({ focused }),
  setDrag: (dragging, over) => set({ dragging, over }),
}));
