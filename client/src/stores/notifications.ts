import { create } from 'zustand';

/**
 * Toasts (the header's notification area, top right, closing after 5000 ms) and
 * the error dialog's message. Toasts are not a live region themselves: whoever
 * shows one also announces it (see a11y/notify.ts), so nothing is read twice.
 */

export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  title: string;
  description?: string;
}

export interface NotificationsState {
  toasts: Toast[];
  /** The error dialog's message; null when closed. */
  errorMessage: string | null;
  /** Shows a toast; returns its id. */
  toast(toast: Omit<Toast, 'id'>, durationMs?: number): number;
  dismiss(id: number): void;
  showError(message: string): void;
  closeError(): void;
}

/** docs/product.md#limits: notifications close by themselves after 5000 ms. */
export const TOAST_DURATION_MS = 5000;
/** More at once would cover the page on a phone. */
const MAX_TOASTS = 4;

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export const useNotifications = create<NotificationsState>()((set, get) => ({
  toasts: [],
  errorMessage: null,

  toast(toast, durationMs = TOAST_DURATION_MS) {
    const id = nextId++;
    set((s) => {
      const toasts = [...s.toasts, { ...toast, id }];
      for (const dropped of toasts.slice(0, Math.max(0, toasts.length - MAX_TOASTS))) {
        clearTimeout(timers.get(dropped.id));
        timers.delete(dropped.id);
      }
      return { toasts: toasts.slice(-MAX_TOASTS) };
    });
    if (durationMs > 0) timers.set(id, setTimeout(() => get().dismiss(id), durationMs));
    return id;
  },

  dismiss(id) {
    clearTimeout(timers.get(id));
    timers.delete(id);
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },

  showError(errorMessage) {
    set({ errorMessage });
  },

  closeError() {
    set({ errorMessage: null });
  },
}));
