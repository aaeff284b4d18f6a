import { api } from '../../../net/api.ts';

/**
 * A Local game's seat key (docs/api.md#endpoints `seat-key`), which a phone needs to take a
 * seat from the TV's QR code; only the creator's device gets it: null for
 * anyone else, or when it cannot be had now (the code then opens the game without it).
 */
export async function fetchSeatKey(gameId: string): Promise<string | null> {
  try {
    return (await api('get', '/api/games/{id}/seat-key', { params: { id: gameId }, schema: (s) => s.SeatKeyReplySchema })).key;
  } catch {
    return null;
  }
}
