import { useEffect, useState } from 'react';
import { announcer } from '../../../a11y/announcer.ts';
import { i18next } from '../../../i18n.ts';
import { newAnnouncements } from './tv-logic.ts';

/** Where the TV remembers its spoken announcements' switch (this device only). */
export const SPEECH_KEY = 'tvSpeech';

export const speechAvailable = (): boolean => typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance === 'function';

function stored(): boolean {
  try {
    return localStorage.getItem(SPEECH_KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Spoken announcements on the TV (docs/product.md#screens "TV"), off by default: when on, the
 * browser's speech says aloud what the live region says, the same texts as
 * they are released (one source: the announcer), in the UI language; an
 * interrupting message cuts off what is being spoken.
 */
export function useTvSpeech(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => speechAvailable() && stored());

  useEffect(() => {
    if (!on || !speechAvailable()) return;
    const synth = window.speechSynthesis;
    // only what is said from now on
    let last = Math.max(0, ...[...announcer.getSnapshot().polite, ...announcer.getSnapshot().assertive].map((a) => a.id));
    const off = announcer.subscribe(() => {
      const snap = announcer.getSnapshot();
      const fresh = newAnnouncements(snap, last);
      if (fresh.length === 0) return;
      last = fresh[fresh.length - 1]!.id;
      if (fresh.some((a) => snap.assertive.includes(a))) synth.cancel();
      for (const a of fresh) {
        const u = new SpeechSynthesisUtterance(a.text);
        u.lang = i18next.language;
        synth.speak(u);
      }
    });
    return () => {
      off();
      synth.cancel();
    };
  }, [on]);

  const set = (value: boolean): void => {
    setOn(value);
    try {
      localStorage.setItem(SPEECH_KEY, value ? 'on' : 'off');
    } catch {
      // storage off: the switch holds for this page
    }
  };
  return [on, set];
}
