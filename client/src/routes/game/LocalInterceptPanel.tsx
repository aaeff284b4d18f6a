import { Box, Button, HStack, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayerPayload, Slot } from '../../../../shared/protocol/game.ts';
import { notify } from '../../a11y/notify.ts';
import { slotText } from '../../format.ts';
import { useGame } from '../../stores/game.ts';
import * as actions from './game-actions.ts';
import { activeSeat, draftAnswers, keepDraft, refusedAnswers, seatOptions, type Draft, type LocalRound } from './game-logic.ts';
import { listNames } from './list-names.ts';
import { useLocalRound } from './local-round-store.ts';
import { PlayerAvatar } from './table/PlayerAvatar.tsx';
import { TokenChip } from './table/TokenChip.tsx';
import { playerColor } from './table/palette.ts';

/**
 * The interception round of a Local game on its one screen (docs/rules.md#local):
 * every seat still asked, each a group of radio buttons (the turn player's free
 * gaps and "No"; a gap chosen for another seat is disabled and names him), and
 * one button that sends every answer given so far, each as that seat's guess.
 * Seats are answered in any order; seats left open stay asked until the time
 * is up. The table's gaps answer for the seat last edited.
 */
export function LocalInterceptPanel({ round }: { round: LocalRound }) {
  const { t } = useTranslation();
  const draft = useLocalRound((s) => s.draft);
  const sent = useLocalRound((s) => s.sent);
  const players = useGame((s) => s.game?.players);
  const choice = useGame((s) => s.choice);
  const answers = draftAnswers(round, draft);
  // a seat whose answer the engine refused: shown at its group until it answers again
  const [lost, setLost] = useState<Readonly<Record<string, Slot>>>({});

  // answers that no longer fit (a seat answered, a gap was guessed meanwhile) are dropped
  useEffect(() => {
    const kept = keepDraft(round, draft);
    if (kept !== draft) useLocalRound.getState().setDraft(kept);
  }, [round, draft]);

  // a new card asks afresh
  useEffect(() => () => useLocalRound.getState().reset(), []);

  // sent answers the game shows now are settled; one refused (a phone's answer took its gap first) is said by name
  const refused = useMemo(() => refusedAnswers({ players: players ?? [] }, sent), [players, sent]);
  useEffect(() => {
    const settled = Object.keys(sent).filter((id) => !round.seats.some((s) => s.id === id));
    if (settled.length) useLocalRound.getState().forget(settled);
  }, [round, sent]);
  useEffect(() => {
    if (refused.length === 0) return;
    useLocalRound.getState().forget(refused.map((r) => r.seat.id));
    setLost((old) => ({ ...old, ...Object.fromEntries(refused.map((r) => [r.seat.id, r.slot as Slot])) }));
    const names = listNames(refused.map((r) => r.seat.name));
    notify.notification(t('local.refused', { names, count: refused.length }), { interrupt: true, toast: 'warning' });
  }, [refused, t]);

  // the table's gaps answer for the seat last edited (its choice is the game store's)
  useEffect(() => {
    const { draft: now, active } = useLocalRound.getState();
    const seat = activeSeat(round, active);
    if (choice !== null && choice !== (now[seat.id] ?? null)) actions.chooseLocal(seat.id, choice, 'quiet');
  }, [choice, round]);

  const editing = (seat: PlayerPayload): void => {
    if (useLocalRound.getState().active === seat.id) return;
    useLocalRound.getState().setActive(seat.id);
    useGame.getState().setChoice(useLocalRound.getState().draft[seat.id] ?? null);
  };

  return (
    <Stack gap="3">
      <Text color="fg.muted" fontSize="sm">
        {t('local.hint')}
      </Text>
      <Stack as="ul" gap="2" listStyleType="none" m="0" p="0">
        {round.seats.map((seat) => (
          <SeatAnswer
            key={seat.id}
            round={round}
            seat={seat}
            draft={draft}
            pending={seat.id in sent && !refused.some((r) => r.seat.id === seat.id)}
            lost={draft[seat.id] == null ? lost[seat.id] : undefined}
            onFocus={() => editing(seat)}
          />
        ))}
        {round.noToken.map((seat) => (
          <Box as="li" key={seat.id} {...seatFrame(seat)} py="2" color="fg.muted">
            <HStack gap="2" wrap="wrap">
              <PlayerAvatar as="span" name={seat.name} colorIndex={seat.color} avatar={seat.avatar} size="sm" />
              <Text as="span" fontWeight="semibold" color="fg">
                {seat.name}
              </Text>
              <Text as="span">{t('local.no_token')}</Text>
            </HStack>
          </Box>
        ))}
      </Stack>
      <Button
        colorPalette="accent"
        size="lg"
        alignSelf={{ base: 'stretch', md: 'flex-start' }}
        aria-keyshortcuts="Alt+Shift+Enter"
        disabled={answers.length === 0}
        onClick={() => {
          actions.sendLocalAnswers();
          // the button goes disabled (nothing left to send), which would drop the focus to the page's start
          document.getElementById('guess-heading')?.focus();
        }}
      >
        {answers.length === 0 ? t('local.send_none') : t('local.send', { count: answers.length })}
      </Button>
    </Stack>
  );
}

/** A seat's row: its colour down the left edge (also the dispute's vote rows). */
export const seatFrame = (seat: PlayerPayload) => {
  const c = playerColor(seat.color);
  return {
    borderWidth: '1px',
    borderColor: 'border',
    borderLeftWidth: '6px',
    borderLeftColor: { base: c.light.bg, _dark: c.dark.bg },
    borderRadius: 'lg',
    px: '3',
    py: '3',
  } as const;
};

/** One seat: "Ben: choose a gap or no", the gaps and "No" as radio buttons. */
function SeatAnswer({
  round,
  seat,
  draft,
  pending,
  lost,
  onFocus,
}: {
  round: LocalRound;
  seat: PlayerPayload;
  draft: Draft;
  pending: boolean;
  lost: Slot | undefined;
  onFocus: () => void;
}) {
  const { t } = useTranslation();
  const value = draft[seat.id] ?? null;
  const options = seatOptions(round, draft, seat.id);
  return (
    <Box as="li" {...seatFrame(seat)} data-seat={seat.name}>
      <RadioGroup.Root
        name={`intercept-${seat.id}`}
        value={value === null ? null : String(value)}
        disabled={pending}
        onValueChange={({ value: v }) => actions.chooseLocal(seat.id, v === 'none' ? 'none' : v ? Number(v) : null, 'sound')}
        onFocus={onFocus}
        orientation="horizontal"
        colorPalette="accent"
        size="lg"
      >
        <RadioGroup.Label display="flex" alignItems="center" gap="2" mb="2" flexWrap="wrap">
          <PlayerAvatar as="span" name={seat.name} colorIndex={seat.color} avatar={seat.avatar} size="sm" />
          <Text as="span" fontWeight="semibold" aria-hidden="true">
            {seat.name}
          </Text>
          <TokenChip count={seat.tokens} size="sm" decorative />
          <Text as="span" srOnly>
            {t('local.seat_label', { name: seat.name, count: seat.tokens })}
          </Text>
        </RadioGroup.Label>
        {pending ? (
          <Text color="fg.muted">{t('local.sending')}</Text>
        ) : (
          <HStack gap="2" wrap="wrap">
            {options.map((o) => (
              <RadioGroup.Item key={o.slot.id} value={String(o.slot.id)} disabled={o.disabled} {...pill} _disabled={{ cursor: 'not-allowed', borderStyle: 'dashed' }}>
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText color={o.disabled ? 'fg.muted' : undefined}>
                  {slotText(o.slot)}
                  {o.disabled && ` (${t('game.guess.taken_by', { names: listNames(o.takenBy) })})`}
                </RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
            <RadioGroup.Item value="none" {...pill}>
              <RadioGroup.ItemHiddenInput />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText>{t('local.no')}</RadioGroup.ItemText>
            </RadioGroup.Item>
          </HStack>
        )}
        {lost && (
          <Text color="fg.warning" fontSize="sm" mt="2">
            {t('local.lost', { slot: slotText(lost) })}
          </Text>
        )}
      </RadioGroup.Root>
    </Box>
  );
}

/** A radio as a pill: a 44 px target that reads as one choice among a row of them. */
const pill = { minH: '44px', px: '3', borderWidth: '1px', borderColor: 'border', borderRadius: 'full', _checked: { borderColor: 'accent.solid', bg: 'accent.subtle' } } as const;
