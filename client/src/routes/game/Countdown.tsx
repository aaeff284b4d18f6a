import './recipes.ts';
import { Badge } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../a11y/notify.ts';
import { useSettings } from '../../stores/settings.ts';
import { gameClock } from '../../stores/game-clock.ts';
import { useGame } from '../../stores/game.ts';
import { ClockIcon } from './icons.tsx';
import { secondsLeft, shouldAnnounce, shouldTick } from './game-logic.ts';

/** The tick's share of the effects volume: it repeats every second, so it stays in the background. */
const TICK_GAIN = 0.6;

/** "1:05", "0:09". */
const clock = (seconds: number): string => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * The running phase's deadline (docs/rules.md#a5: absolute epoch ms of the server's
 * clock) as a countdown, against the server's clock as game-clock.ts estimates
 * it (the device's own clock may be off). It ticks visibly every second but is
 * no live region: when `speak` (this device has to act), it is said at a few
 * moments only (60, 30, 10, 5 seconds left), never every second, and an
 * interrupting message may drop such a notice (it is stale a moment later),
 * and nothing is said while the connection is down. With the ticking countdown
 * on (the app's settings), its last 10 seconds tick.
 */
export function Countdown({ deadline, speak }: { deadline: number; speak: boolean }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => gameClock.now());
  // the phase's length, to leave out "60 seconds left" of a 45-second phase
  const total = useRef(secondsLeft(deadline, gameClock.now()));
  const said = useRef<number | null>(null);
  const ticked = useRef<number | null>(null);

  useEffect(() => {
    total.current = secondsLeft(deadline, gameClock.now());
    said.current = null;
    ticked.current = null;
    setNow(gameClock.now());
    const timer = setInterval(() => setNow(gameClock.now()), 250);
    return () => clearInterval(timer);
  }, [deadline]);

  const left = secondsLeft(deadline, now);
  // not while the connection is down: the deadline may move (a restarted server shifts it by its downtime)
  const connected = useGame((s) => s.status === 'connected');
  useEffect(() => {
    if (!speak || !connected || said.current === left || !shouldAnnounce(left, total.current)) return;
    said.current = left;
    notify.notification(t('game.countdown.left', { time: t('count.seconds', { count: left }) }), { toast: false, transient: true });
  }, [left, speak, connected, t]);

  // the optional ticking countdown (the app's settings): a tick each of the last seconds, on every device that has it on
  const ticks = useSettings((s) => s.countdownTicks);
  useEffect(() => {
    if (!ticks || !connected || !shouldTick(left, ticked.current)) return;
    ticked.current = left;
    notify.playSfx('tick', { gain: TICK_GAIN });
  }, [left, ticks, connected]);

  return (
    <Badge
      role="timer"
      aria-label={t('game.countdown.label', { time: t('count.seconds', { count: left }) })}
      colorPalette={left <= 10 ? 'red' : 'gray'}
      variant="subtle"
      size="lg"
      fontVariantNumeric="tabular-nums"
      flexShrink={0}
    >
      <ClockIcon boxSize="4" />
      <span aria-hidden="true">{clock(left)}</span>
    </Badge>
  );
}
