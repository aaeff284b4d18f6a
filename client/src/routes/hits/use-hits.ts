import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasNamespace, loadNamespace } from '../../i18n.ts';
import { useSession } from '../../stores/session.ts';

/**
 * Small hooks the catalogue screens share: their translations (namespace
 * `hits`, locales/hits.<lng>.json, loaded with the screens) and the
 * permissions from the `user` cookie (docs/api.md#permissions). The cookie only decides
 * what the UI offers: the server checks every write again.
 */

/** `t` of the `hits` namespace. */
export const useHitsT = () => useTranslation('hits').t;

/**
 * True once the `hits` messages are loaded for the current language; loads
 * them on first use and after a language switch. A failed load (offline)
 * counts as ready: i18next then falls back to English or the keys, which beats
 * a spinner that never ends.
 */
export function useHitsMessages(): boolean {
  const { i18n } = useTranslation('hits');
  const [failed, setFailed] = useState(false);
  const [, setLoaded] = useState(0);
  const ready = failed || hasNamespace('hits');
  useEffect(() => {
    if (ready) return;
    let live = true;
    loadNamespace('hits').then(
      () => live && setLoaded((n) => n + 1),
      (err: unknown) => {
        console.warn('hits messages could not be loaded', err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [ready, i18n.language]);
  return ready;
}

/** May this user create, edit, delete, import and export hits? */
export const useCanWriteHits = (): boolean => useSession((s) => s.user?.permissions.write_hits ?? false);

/** May this user create, rename and delete packs? */
export const useCanWritePacks = (): boolean => useSession((s) => s.user?.permissions.write_packs ?? false);
