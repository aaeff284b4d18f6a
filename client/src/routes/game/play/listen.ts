import { create } from 'zustand';
import { LISTEN_KEY, listensOn } from './controller-logic.ts';

/** "Listen on this phone" (controller-logic.ts), remembered on the device. */

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

export const useListen = create<{ listen: boolean; setListen: (on: boolean) => void }>()((set) => ({
  listen: listensOn(storage()?.getItem(LISTEN_KEY) ?? null),
  setListen(on) {
    try {
      storage()?.setItem(LISTEN_KEY, String(on));
    } catch {
      // a private window without storage: on for this visit only
    }
    set({ listen: on });
  },
}));
