/**
 * A Local game's seat key (docs/rules.md#create), which a phone needs to take a seat from the
 * TV's QR code; only the creator's device gets it. Kept in this one place until
 * the route table has the call: null when there is none for this device.
 */
export async function fetchSeatKey(gameId: string): Promise<string | null> {
  try {
    const res = await fetch(`/api/games/${encodeURIComponent(gameId)}/seat-key`, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!res.ok) return null;
    const body = (await res.json()) as { key?: unknown };
    return typeof body.key === 'string' ? body.key : null;
  } catch {
    return null;
  }
}
