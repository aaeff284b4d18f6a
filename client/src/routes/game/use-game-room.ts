import { useEffect } from 'react';
import { followGameNews, sayRefusal } from '../../a11y/game-news.ts';
import { joinAndKeep, type RoomLink } from '../../net/rejoin.ts';
import { connectionFor, openGameRoom, type GameRoomOptions } from '../../net/room.ts';
import { useGame } from '../../stores/game.ts';

/**
 * Connects the game store to game `gameId`'s room while the screen is mounted:
 * joins as a viewer (spectators too; a seat is the `join` message), mirrors
 * every state patch, and passes events on; while it is up, what the events mean
 * and the room's refusals are said and shown (a11y/game-news.ts). The link (net/rejoin.ts)
 * follows the socket: while the SDK reconnects a dropped socket the store says
 * 'reconnecting'; when the room closed on us (the SDK gave up, the server
 * restarted) it joins again by itself and the session cookie finds the seat;
 * after a while without success it says 'lost' (the screen offers "try again"
 * while the attempts go on), and a game that no longer exists ends as 'gone'.
 */

export { isGone } from '../../net/rejoin.ts';

/** The mounted screen's "try again" (one game screen at a time). */
const retryRef: { current: () => void } = { current: () => undefined };

/** `options.key`: a Local game's seat key (a phone's join link); every rejoin presents it again. */
export function useGameRoom(gameId: string, options: GameRoomOptions & { named?: boolean } = {}): { retry: () => void } {
  const key = options.key;
  const named = options.named ?? false;
  useEffect(() => {
    useGame.getState().reset(gameId);
    const stopNews = followGameNews({ named });
    let disposed = false;
    let link: RoomLink | null = null;
    let offs: (() => void)[] = [];

    const unwire = (): void => {
      offs.forEach((off) => off());
      offs = [];
    };

    /** Every room joined (the first, and each one after a rejoin) feeds the store. */
    const wire = (room: Parameters<typeof connectionFor>[0]): void => {
      unwire();
      const c = connectionFor(room);
      const onState = (): void => useGame.getState().applyState(room.state?.toJSON?.() ?? room.state);
      room.onStateChange(onState);
      offs.push(
        () => room.onStateChange.remove(onState),
        c.onEvent((e) => useGame.getState().applyEvent(e)),
        c.onError(sayRefusal),
      );
      useGame.getState().setSender((type, payload) => c.send(type, payload));
      // the state of the join may have arrived before these listeners
      if ((room.state as { id?: string } | undefined)?.id) onState();
    };

    const connect = async (): Promise<void> => {
      try {
        const joined = await joinAndKeep({
          join: () => openGameRoom(gameId, key ? { key } : {}),
          onRoom: (room) => {
            if (!disposed) wire(room);
          },
          onStatus: (status) => {
            if (disposed) return;
            // while the SDK reconnects it queues what is sent; a rejoin wires a new sender
            if (status === 'lost' || status === 'gone') useGame.getState().setSender(null);
            useGame.getState().setStatus(status);
          },
        });
        if (disposed) {
          void joined.leave();
          return;
        }
        link = joined;
      } catch (err) {
        if (!disposed) useGame.getState().setLoadError(err);
      }
    };

    void connect();
    // a manual retry (the "try again" button): a link that is rejoining tries again now and
    // keeps trying (tearing it down would leave nothing that retries when this attempt fails);
    // without a link (the first join failed) it starts over
    retryRef.current = () => {
      if (link) {
        link.retryNow();
        return;
      }
      unwire();
      useGame.getState().setLoadError(null);
      useGame.getState().setStatus('connecting');
      void connect();
    };

    return () => {
      disposed = true;
      unwire();
      // blank for the next game screen: its first render, before its own reset, must not
      // see this game (a 'gone' status would send it back to the lobby at once)
      useGame.getState().reset('');
      stopNews();
      const l = link;
      link = null;
      void l?.leave();
    };
  }, [gameId, key, named]);
  return { retry: () => retryRef.current() };
}
