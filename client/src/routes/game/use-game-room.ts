import { useEffect } from 'react';
import { joinGameRoom, type GameRoomConnection } from '../../net/room.ts';
import { useGame } from '../../stores/game.ts';

/**
 * Connects the game store to game `gameId`'s room while the screen is mounted:
 * joins as a viewer (spectators too; a seat is the `join` message), mirrors
 * every state patch, passes events and refusals on, and follows the socket:
 * while the SDK reconnects a dropped socket (keeping the seat, within the
 * server's RECONNECT_SECONDS) the store says 'reconnecting'; when the room
 * closes on us (the SDK gave up, the session changed, the game was deleted) a
 * fresh join is tried, and a game that no longer exists ends as 'gone'.
 */

/** Matchmaking answers that mean "no such game for you": not found, invalid room id, auth refused. */
const GONE_CODES = new Set([404, 522, 525]);
export const isGone = (err: unknown): boolean => GONE_CODES.has(Number((err as { code?: unknown } | null)?.code));

/** Fresh joins after the room closed on us, before giving up with 'lost'. */
const REJOIN_ATTEMPTS = 6;
const rejoinDelay = (attempt: number): number => Math.min(8000, 500 * 2 ** attempt);

/** The mounted screen's "try again" (one game screen at a time). */
const retryRef: { current: () => void } = { current: () => undefined };

export function useGameRoom(gameId: string): { retry: () => void } {
  useEffect(() => {
    const store = useGame.getState();
    store.reset(gameId);
    let disposed = false;
    let connection: GameRoomConnection | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let offs: (() => void)[] = [];

    const unwire = (): void => {
      offs.forEach((off) => off());
      offs = [];
    };

    const wire = (c: GameRoomConnection): void => {
      const { room } = c;
      const onState = (): void => useGame.getState().applyState(room.state?.toJSON?.() ?? room.state);
      room.onStateChange(onState);
      const onDrop = (): void => useGame.getState().setStatus('reconnecting');
      const onReconnect = (): void => useGame.getState().setStatus('connected');
      const onLeave = (): void => {
        if (disposed || connection !== c) return;
        unwire();
        connection = null;
        useGame.getState().setSender(null);
        useGame.getState().setStatus('reconnecting');
        void connect(0);
      };
      room.onDrop(onDrop);
      room.onReconnect(onReconnect);
      room.onLeave(onLeave);
      offs.push(
        () => room.onStateChange.remove(onState),
        () => room.onDrop.remove(onDrop),
        () => room.onReconnect.remove(onReconnect),
        () => room.onLeave.remove(onLeave),
        c.onEvent((e) => useGame.getState().applyEvent(e)),
        c.onError((e) => useGame.getState().handleError(e)),
      );
      useGame.getState().setSender((type, payload) => c.send(type, payload));
      // the state of the join may have arrived before these listeners
      if ((room.state as { id?: string } | undefined)?.id) onState();
    };

    const connect = async (attempt: number): Promise<void> => {
      try {
        const c = await joinGameRoom(gameId);
        if (disposed) {
          void c.leave();
          return;
        }
        connection = c;
        wire(c);
        useGame.getState().setStatus('connected');
      } catch (err) {
        if (disposed) return;
        const s = useGame.getState();
        if (!s.game) {
          s.setLoadError(err);
          return;
        }
        if (isGone(err)) {
          s.setStatus('gone');
          return;
        }
        if (attempt + 1 >= REJOIN_ATTEMPTS) {
          s.setStatus('lost');
          return;
        }
        timer = setTimeout(() => void connect(attempt + 1), rejoinDelay(attempt));
      }
    };

    void connect(0);
    // a manual retry (the "try again" button) starts over
    retryRef.current = () => {
      clearTimeout(timer);
      unwire();
      const old = connection;
      connection = null;
      if (old) void old.leave().catch(() => undefined);
      useGame.getState().setLoadError(null);
      useGame.getState().setStatus('connecting');
      void connect(0);
    };

    return () => {
      disposed = true;
      clearTimeout(timer);
      unwire();
      useGame.getState().setSender(null);
      const c = connection;
      connection = null;
      void c?.leave().catch(() => undefined);
    };
  }, [gameId]);
  return { retry: () => retryRef.current() };
}
