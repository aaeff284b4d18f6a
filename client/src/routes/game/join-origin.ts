import { useEffect, useState } from 'react';
import type { JoinAddress } from '../../../../shared/protocol/game.ts';
import { api } from '../../net/api.ts';

/**
 * The origin phones open to join (docs/api.md#endpoints): the page's own, unless the
 * browser is on `localhost` (a phone's "localhost" is the phone). Then the
 * operator's PUBLIC_URL, else one of the server's LAN addresses, else the
 * loopback origin with a warning that phones cannot open it.
 */

export interface JoinOrigin {
  origin: string;
  /** Only a loopback address is known: phones cannot open it. */
  loopbackOnly: boolean;
}

/** Is this URL host (as `URL.hostname` spells it) the machine itself? */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** What phones should open, from the page's origin and what the server said (null: not asked, or no answer). */
export function pickJoinOrigin(pageOrigin: string, known: JoinAddress | null): JoinOrigin {
  if (!isLoopbackHost(new URL(pageOrigin).hostname)) return { origin: pageOrigin, loopbackOnly: false };
  const other = known?.public_url ?? known?.lan[0];
  return other ? { origin: new URL(other).origin, loopbackOnly: false } : { origin: pageOrigin, loopbackOnly: true };
}

/** The join origin of this page; asks the server only when the page is on loopback (each time: its network may have changed). */
export async function joinOrigin(pageOrigin = window.location.origin): Promise<JoinOrigin> {
  if (!isLoopbackHost(new URL(pageOrigin).hostname)) return pickJoinOrigin(pageOrigin, null);
  const known = await api('get', '/api/join-address', { schema: (s) => s.JoinAddressSchema }).catch((): JoinAddress | null => null);
  return pickJoinOrigin(pageOrigin, known);
}

/** The join origin for a component; null while the server is asked. */
export function useJoinOrigin(): JoinOrigin | null {
  const [value, setValue] = useState<JoinOrigin | null>(() => (isLoopbackHost(window.location.hostname) ? null : pickJoinOrigin(window.location.origin, null)));
  useEffect(() => {
    let live = true;
    void joinOrigin().then((v) => live && setValue(v));
    return () => {
      live = false;
    };
  }, []);
  return value;
}

/** The address a phone opens to play game `gameId` (docs/product.md#screens): its controller view; a Local game's carries the seat key. */
export function playLink(origin: string, gameId: string, seatKey?: string | null): string {
  const url = new URL(`/game/${encodeURIComponent(gameId)}/play`, origin);
  if (seatKey) url.searchParams.set('key', seatKey);
  return url.href;
}
