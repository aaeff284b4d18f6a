import './recipes.ts';
import { Box, Button, Flex, HStack, Heading, Portal, RadioGroup, Stack, Text, Tooltip } from '@chakra-ui/react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { COST_INTERCEPT } from '../../../../shared/rules/constants.ts';
import { notify } from '../../a11y/notify.ts';
import { slotText } from '../../format.ts';
import { useGame } from '../../stores/game.ts';
import { useSettings } from '../../stores/settings.ts';
import { Countdown } from './Countdown.tsx';
import * as actions from './game-actions.ts';
import { canSubmit, choiceTaken, guessModel, keepChoice, localRound, type GuessModel, type SlotOption } from './game-logic.ts';
import { listNames } from './list-names.ts';
import { LocalInterceptPanel } from './LocalInterceptPanel.tsx';
import { usePerspective } from './use-perspective.ts';
import { OpenTable } from './table/OpenTable.tsx';
import { keepTableInView } from './table/scroll.ts';
import { useTable } from './table/table-store.ts';
import { useTvStage } from './table/stage.ts';

export { listNames };

/**
 * The panel's heading per the acting player's state (docs/product.md#screens). `card`: card clue
 * mode, where everybody sees title and artist, so the confirmer is asked about
 * the exact year instead.
 */
export function guessHeading(model: GuessModel, t: (key: string, params?: Record<string, unknown>) => string, card = false): string {
  const name = model.actor?.name ?? '';
  const turn = model.turn?.name ?? '';
  switch (model.phase) {
    case 'not_started':
      return t('game.guess.not_started');
    case 'waiting':
      return model.waitingOn.length ? t('game.guess.waiting', { names: listNames(model.waitingOn.map((p) => p.name)) }) : t('game.guess.waiting_nobody');
    case 'guessing':
      return model.you ? t('game.guess.guessing_you') : t('game.guess.guessing_other', { name });
    case 'intercepting':
      return model.you ? t('game.guess.intercepting_you', { turn }) : t('game.guess.intercepting_other', { name, turn });
    case 'confirming':
      return t(card ? 'game.guess.confirming_card' : 'game.guess.confirming', { turn });
  }
}

/**
 * The guess panel (docs/product.md#screens): its heading follows the acting player's state;
 * while he guesses or intercepts, the turn player's slots are radio buttons
 * ("before 1975", "between 1975 and 1988", "after 1988"), those already chosen
 * disabled with a tooltip naming who chose them, plus "don't intercept" while
 * Intercepting. The radios are the keyboard and screen-reader control of the
 * choice; the eye uses the gaps of the turn player's row (TimelineRow), the
 * same choice in the game store, so the list is visually hidden unless the
 * player prefers it (Settings). "Place it here" (or "Intercept here") sends a
 * chosen gap, "Don't intercept" declines; Confirming has yes and no. On a
 * phone the panel is the bottom action bar. A Local game's one screen asks
 * all its interceptors at once instead (LocalInterceptPanel).
 */
export function GuessPanel() {
  const { t } = useTranslation();
  const tv = useTvStage();
  const state = useGame((s) => s.game?.state ?? 'Open');
  const players = useGame((s) => s.game?.players);
  const deadline = useGame((s) => s.game?.deadline ?? null);
  const card = useGame((s) => s.game?.clue_mode === 'card');
  const choice = useGame((s) => s.choice);
  const perspective = usePerspective();
  const model = useMemo(() => guessModel({ state, players: players ?? [] }, perspective), [state, players, perspective]);
  // a Local game's one screen asks every seat at once (docs/rules.md#local)
  const round = useMemo(() => localRound({ state, players: players ?? [] }, perspective), [state, players, perspective]);

  // a choice that no longer fits (new turn, new phase) is dropped
  useEffect(() => {
    const kept = keepChoice(model, choice);
    if (kept !== choice) useGame.getState().setChoice(kept);
  }, [model, choice]);

  // the chosen slot was taken by someone else meanwhile: say so (it now counts as none);
  // moving the choice onto a taken slot is read by whatever moved it, once
  const taken = choiceTaken(model, choice);
  const before = useRef({ taken, choice });
  useEffect(() => {
    if (taken && !before.current.taken && choice === before.current.choice) actions.announceChoice(choice);
    before.current = { taken, choice };
  }, [taken, choice]);

  // After a guess or a confirmation the control that had the focus is gone and
  // the focus would fall back to the page's start; the panel's heading takes it
  // instead, so keyboard users stay here and hear the new state.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusInside = useRef(false);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (focusInside.current && lost) headingRef.current?.focus();
  }, [model.phase]);

  const picking = model.phase === 'guessing' || model.phase === 'intercepting';
  const actionable = picking || model.phase === 'confirming';
  // the gaps of the row are the visual control; the radio buttons stay as the accessible one,
  // visually hidden unless the player prefers the list (Settings)
  const asList = useSettings((s) => s.choicesAsList);
  // on a phone the panel is the bottom action bar, in thumb reach (a list of choices is too tall for that)
  // (the one-screen round lists every seat: too tall for the bar too)
  // while the table votes on a year (docs/rules.md#disputes) the vote is the move: nothing else may be played
  const voting = useGame((s) => s.game?.dispute?.outcome === null);
  const bar = !asList && model.phase !== 'not_started' && !round && !voting;

  // The bar covers the bottom of the page: the page gets as much room below its content
  // (--action-bar-h), and focus moving behind it scrolls clear of it (scroll-padding).
  const sectionRef = useRef<HTMLElement>(null);
  const barHeight = useRef(0);
  useEffect(() => {
    const el = sectionRef.current;
    const root = document.documentElement;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => {
      const fixed = getComputedStyle(el).position === 'fixed';
      barHeight.current = fixed ? Math.ceil(el.getBoundingClientRect().height) : 0;
      root.style.setProperty('--action-bar-h', `${barHeight.current}px`);
      root.style.scrollPaddingBottom = fixed ? `${barHeight.current + 8}px` : '';
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty('--action-bar-h');
      root.style.scrollPaddingBottom = '';
    };
  }, [bar]);

  // When this device has to act, the card and the turn player's row (and a list of choices)
  // come into view, the card never pushed off screen (the action itself is in the bar).
  useEffect(() => {
    if (!actionable) return;
    keepTableInView(document.getElementById('hit-section'), [document.getElementById('turn-row'), asList ? sectionRef.current : null], barHeight.current);
  }, [actionable, model.phase, asList]);

  // the TV names the player whose move it is: nobody at the table is "you" there
  const heading = round ? t('local.heading', { turn: round.turn.name }) : guessHeading(tv ? { ...model, you: false } : model, (key, params) => t(key, params ?? {}), card);
  const ownGuess = !perspective.local && !tv && perspective.me?.guess ? perspective.me.guess : null;
  const focusedNone = useTable((s) => s.focused === 'none');
  const chosenFree = typeof choice === 'number' && canSubmit(model, choice) && !taken;
  const needsChoice = model.phase === 'guessing' && !canSubmit(model, choice);

  if (voting) return null;
  return (
    <Box
      ref={sectionRef}
      as="section"
      // clear of the sticky header when scrolled into view
      scrollMarginTop="5rem"
      aria-labelledby="guess-heading"
      data-bar={bar || undefined}
      position={bar ? { base: 'fixed', lg: 'static' } : 'static'}
      insetX={bar ? { base: '0', lg: 'auto' } : undefined}
      bottom={bar ? { base: '0', lg: 'auto' } : undefined}
      zIndex={bar ? { base: 'docked', lg: 'auto' } : undefined}
      bg="bg.panel"
      boxShadow={bar ? { base: 'overlay', lg: 'raised' } : 'raised'}
      borderWidth={bar ? { base: '0', lg: '1px' } : '1px'}
      borderTopWidth="1px"
      borderColor="border"
      borderRadius={bar ? { base: '0', lg: 'panel' } : 'panel'}
      px={{ base: '4', md: '5' }}
      pt={{ base: '3', md: '4' }}
      // the phone's home indicator
      pb={bar ? { base: 'calc(0.75rem + env(safe-area-inset-bottom))', md: '4' } : { base: '4', md: '5' }}
      onFocus={() => {
        focusInside.current = true;
      }}
      onBlur={(e) => {
        // a removed element fires no blur, so this only clears on a real move elsewhere
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) focusInside.current = false;
      }}
    >
      <HStack justify="space-between" align="center" gap="3" mb="2">
        <Heading as="h2" id="guess-heading" size={{ base: 'md', md: 'lg' }} ref={headingRef} tabIndex={-1} minW="0" overflowWrap="anywhere">
          {heading}
        </Heading>
        {deadline !== null && state !== 'Open' && <Countdown deadline={deadline} speak={picking || model.phase === 'confirming'} />}
      </HStack>

      {model.phase === 'not_started' && <OpenTable />}
      {model.phase === 'waiting' && ownGuess && <Text color="fg.muted">{t('game.guess.your_guess', { slot: slotText(ownGuess) })}</Text>}
      {/* someone else's guess may be intercepted, but not by a player without a token: say why he only waits */}
      {model.phase === 'waiting' && state === 'Intercepting' && !perspective.local && perspective.me && !perspective.me.turn_player && perspective.me.tokens < COST_INTERCEPT && !ownGuess && (
        <Text color="fg.muted">{t('game.guess.no_tokens')}</Text>
      )}

      {round && <LocalInterceptPanel round={round} />}
      {picking && !round && (
        <Stack gap="3">
          <Box srOnly={!asList}>
            <RadioGroup.Root
              value={choice === null ? null : String(choice)}
              onValueChange={({ value }) => {
                const next = value === 'none' ? 'none' : value ? Number(value) : null;
                useGame.getState().setChoice(next);
                notify.playSfx('select_slot');
              }}
              // the radio with the keyboard focus shows its ring on its gap (the list itself may be hidden)
              onFocus={(e) => {
                const value = (e.target as HTMLInputElement).value;
                useTable.getState().setFocused(value === 'none' ? 'none' : value ? Number(value) : undefined);
              }}
              onBlur={() => useTable.getState().setFocused(undefined)}
              colorPalette="accent"
              size="lg"
            >
              <RadioGroup.Label mb="2" display="block" fontWeight="medium">
                {t('game.guess.slots_label', { name: model.turn?.name ?? '' })}
              </RadioGroup.Label>
              <Stack gap="1">
                {model.options.map((option) => (
                  <SlotItem key={option.slot.id} option={option} />
                ))}
                {model.allowNone && (
                  <RadioGroup.Item value="none" minH="44px">
                    <RadioGroup.ItemHiddenInput />
                    <RadioGroup.ItemIndicator />
                    <RadioGroup.ItemText>{t('game.guess.dont_intercept')}</RadioGroup.ItemText>
                  </RadioGroup.Item>
                )}
              </Stack>
            </RadioGroup.Root>
          </Box>
          {needsChoice && (
            <Text color="fg.muted" id="guess-hint" fontSize="sm">
              {/* the gaps' own words for the eye; the radios' for screen readers */}
              {!asList && (
                <Text as="span" aria-hidden="true">
                  {t('table:card.drag_hint')}
                </Text>
              )}
              <Text as="span" srOnly={!asList}>
                {t('game.guess.select_first')}
              </Text>
            </Text>
          )}
          {taken && (
            <Text color="fg.warning" id="guess-hint" fontSize="sm">
              {t('game.guess.taken_hint')}
            </Text>
          )}
          <Flex gap="2" wrap="wrap">
            <Button
              colorPalette="accent"
              size="lg"
              flex={{ base: '1', md: '0 0 auto' }}
              aria-keyshortcuts="Alt+Shift+Enter"
              aria-describedby={needsChoice || taken ? 'guess-hint' : undefined}
              disabled={model.phase === 'guessing' ? !canSubmit(model, choice) : !chosenFree}
              onClick={actions.submitGuess}
            >
              {t(model.phase === 'guessing' ? 'table:action.place' : 'table:action.intercept')}
            </Button>
            {model.phase === 'intercepting' && (
              <Button
                variant="outline"
                size="lg"
                flex={{ base: '1', md: '0 0 auto' }}
                onClick={actions.decline}
                outline={focusedNone ? '3px solid' : undefined}
                outlineColor={focusedNone ? 'accent.focusRing' : undefined}
              >
                {t('game.guess.dont_intercept')}
              </Button>
            )}
          </Flex>
        </Stack>
      )}

      {model.phase === 'confirming' && (
        <Flex gap="2" wrap="wrap">
          <Button colorPalette="accent" size="lg" flex={{ base: '1', md: '0 0 auto' }} aria-keyshortcuts="Alt+Shift+Y" onClick={() => actions.confirm(true)}>
            {t('game.guess.yes')}
          </Button>
          <Button colorPalette="red" variant="outline" size="lg" flex={{ base: '1', md: '0 0 auto' }} aria-keyshortcuts="Alt+Shift+N" onClick={() => actions.confirm(false)}>
            {t('game.guess.no')}
          </Button>
        </Flex>
      )}
    </Box>
  );
}

/** One slot; a taken one is disabled, names its takers and shows them in a tooltip too. */
function SlotItem({ option }: { option: SlotOption }) {
  const { t } = useTranslation();
  const label = slotText(option.slot);
  const item = (
    // the indicator dims itself when disabled; dimming the whole item too would make its circle all but vanish in the dark scheme
    <RadioGroup.Item value={String(option.slot.id)} disabled={option.disabled} minH="44px" _disabled={{ cursor: 'not-allowed' }}>
      <RadioGroup.ItemHiddenInput />
      <RadioGroup.ItemIndicator />
      <RadioGroup.ItemText color={option.disabled ? 'fg.muted' : undefined}>
        {label}
        {option.disabled && ' '}
        {option.disabled && (
          <Text as="span" color="fg.muted">
            ({t('game.guess.taken_by', { names: listNames(option.takenBy) })})
          </Text>
        )}
      </RadioGroup.ItemText>
    </RadioGroup.Item>
  );
  if (!option.disabled) return item;
  // the trigger is a wrapper: merged onto the item, the trigger's props would override the item's disabled state
  return (
    <Tooltip.Root openDelay={150} closeDelay={50} positioning={{ placement: 'top-start' }}>
      <Tooltip.Trigger asChild>
        <Box>{item}</Box>
      </Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{t('game.guess.taken_by', { names: listNames(option.takenBy) })}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
