import './recipes.ts';
import { Badge, Box, Button, Checkbox, Field, Fieldset, HStack, Input, RadioGroup, SimpleGrid, Spinner, Stack, Text, Wrap } from '@chakra-ui/react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlayableCounts } from '../../../../shared/protocol/catalogue.ts';
import type { Settings } from '../../../../shared/protocol/game.ts';
import { LIMITS, MIN_PLAYERS, type NumericSetting } from '../../../../shared/rules/constants.ts';
import { autoClueMode, clueChoice, hitsNeeded, type ClueChoice } from '../../../../shared/rules/settings.ts';
import { CLUE_MODES } from '../../../../shared/rules/types.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { playableCounts } from '../../net/catalogue.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import { useGame } from '../../stores/game.ts';
import * as actions from './game-actions.ts';
import { byName, clampRandomCount, clampSetting, DEFAULT_RANDOM_PACKS, randomPacks, selectAllState, toggleAll } from './game-logic.ts';
import { usePerspective } from './use-perspective.ts';

const NUMBER_FIELDS: readonly NumericSetting[] = ['goal', 'start_tokens', 'hit_duration', 'guess_timeout', 'intercept_timeout', 'confirm_timeout', 'reveal_time', 'disputes', 'dispute_timeout'];
const TIMEOUTS = new Set<NumericSetting>(['guess_timeout', 'intercept_timeout', 'confirm_timeout', 'dispute_timeout']);

type Numbers = Record<NumericSetting, string>;

interface Draft {
  numbers: Numbers;
  clue: ClueChoice;
  packs: Set<string>;
  /** The DJ of `dj` rounds: a player's id, '' for the creator. */
  dj: string;
  djPlays: boolean;
}

/** The choices of the clue setting: decided at the start, or one chosen. */
const CLUE_CHOICES: readonly ClueChoice[] = ['auto', ...CLUE_MODES];

const draftOf = (s: Settings): Draft => ({
  numbers: Object.fromEntries(NUMBER_FIELDS.map((k) => [k, String(s[k])])) as Numbers,
  clue: clueChoice(s),
  packs: new Set(s.packs),
  dj: s.dj,
  djPlays: s.dj_plays,
});

/** A clue choice's label: the DJ's lives in the game screen's namespace. */
const clueLabel = (choice: ClueChoice): string => (choice === 'dj' ? 'table:dj.settings.choice' : `game.settings.clue_${choice}`);

/** The game's settings, re-rendering only when they change (not on every patch of the game). */
export function useGameSettings(): Settings | null {
  const json = useGame((s) => {
    const g = s.game;
    if (!g) return null;
    const settings: Settings = {
      goal: g.goal,
      start_tokens: g.start_tokens,
      hit_duration: g.hit_duration,
      guess_timeout: g.guess_timeout,
      intercept_timeout: g.intercept_timeout,
      confirm_timeout: g.confirm_timeout,
      reveal_time: g.reveal_time,
      disputes: g.disputes,
      dispute_timeout: g.dispute_timeout,
      clue_mode: g.clue_mode,
      clue_mode_auto: g.clue_mode_auto,
      dj: g.dj,
      dj_plays: g.dj_plays,
      packs: g.packs,
    };
    return JSON.stringify(settings);
  });
  return useMemo(() => (json ? (JSON.parse(json) as Settings) : null), [json]);
}

/** Which save label the dialog shows (docs/product.md#screens): 'save', 'not creator' or 'game already running'. */
export function saveLabel(creator: boolean, open: boolean): 'save' | 'not_creator' | 'already_running' {
  if (!creator) return 'not_creator';
  return open ? 'save' : 'already_running';
}

/**
 * The game settings dialog (docs/product.md#screens, docs/rules.md#a5, #a9): goal, start tokens, hit
 * duration, the three timeouts, the time each reveal stays on the table, the
 * clue mode, and the packs (a select-all
 * tri-state checkbox, N packs at random, a toggle per pack with its hit count).
 * Everyone may look; only the creator edits, and only while the game is Open.
 * Saving sends the room's `update` message; a refusal shows in the error dialog.
 */
export function GameSettingsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const trustId = useId();
  const countId = useId();
  const djTrustId = useId();
  const settings = useGameSettings();
  const players = useGame((s) => s.game?.players.length ?? 0);
  const state = useGame((s) => s.game?.state);
  const local = useGame((s) => s.game?.mode === 'Local');
  const { me } = usePerspective();
  const packs = useCatalogue((s) => s.packs);
  const packsLoaded = useCatalogue((s) => s.packsLoaded);
  const creator = !!me?.creator;
  const editable = creator && state === 'Open';
  const label = saveLabel(creator, state === 'Open');

  const [draft, setDraft] = useState<Draft | null>(null);
  const [randomCount, setRandomCount] = useState(String(DEFAULT_RANDOM_PACKS));
  const firstFieldRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!open) return;
    if (!useCatalogue.getState().packsLoaded) void useCatalogue.getState().loadPacks();
  }, [open]);

  // A fresh draft each time the dialog opens (set while rendering, so the dialog
  // never renders empty first); later patches must not overwrite what the creator
  // is typing. A viewer who cannot edit always sees the stored settings.
  const [openedFor, setOpenedFor] = useState<Settings | null>(null);
  if (open && settings && !openedFor) {
    setOpenedFor(settings);
    setDraft(draftOf(settings));
  } else if (!open && openedFor) {
    setOpenedFor(null);
  }
  const shown = !editable && settings ? draftOf(settings) : draft;

  const sorted = useMemo(() => [...packs].sort(byName), [packs]);
  const allIds = useMemo(() => sorted.map((p) => p.id), [sorted]);
  // what the selection as it stands in the dialog can deal (the known packs once they are loaded)
  const counts = usePlayableCounts(shown ? (packsLoaded ? allIds.filter((id) => shown.packs.has(id)) : [...shown.packs]) : [], open && !!shown);
  // the default count (5) never shows more packs than there are, once they are known
  useEffect(() => {
    if (allIds.length > 0) setRandomCount((c) => String(clampRandomCount(c, allIds.length)));
  }, [allIds.length]);

  if (!settings || !shown) return null;

  const setNumber = (key: NumericSetting, value: string): void => setDraft((d) => (d ? { ...d, numbers: { ...d.numbers, [key]: value } } : d));
  const setPacks = (next: Set<string>): void => setDraft((d) => (d ? { ...d, packs: next } : d));
  const togglePack = (id: string): void => {
    const next = new Set(shown.packs);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setPacks(next);
  };
  const known = allIds.filter((id) => shown.packs.has(id));
  const noPack = packsLoaded && allIds.length > 0 && known.length === 0;

  const save = (e?: FormEvent): void => {
    e?.preventDefault();
    if (!editable || noPack) return;
    const numbers = Object.fromEntries(NUMBER_FIELDS.map((k) => [k, clampSetting(k, shown.numbers[k])])) as Record<NumericSetting, number>;
    // not sent (no connection): the dialog stays open with the changes, to be saved again
    const clue = shown.clue === 'auto' ? { clue_mode_auto: true } : { clue_mode: shown.clue, clue_mode_auto: false };
    // a Local game has no DJ
    const dj = local ? {} : { dj: shown.dj, dj_plays: shown.djPlays };
    if (actions.saveSettings({ ...numbers, ...clue, ...dj, ...(packsLoaded ? { packs: known } : {}) })) onClose();
  };

  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size="lg"
      title={t('game.settings.title')}
      // the creator starts typing in the first field; a viewer lands on the dialog itself
      initialFocusEl={() => (editable ? firstFieldRef.current : null)}
      keyboardOnOpen={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>
            {t('common.close')}
          </Button>
          <Button type="submit" form="game-settings-form" colorPalette="accent" disabled={!editable || noPack}>
            {t(`game.settings.${label}`)}
          </Button>
        </HStack>
      }
    >
      {/* a form, so Return in a number field saves */}
      <Stack asChild gap="6">
        <form id="game-settings-form" onSubmit={save} noValidate>
        {!editable && <Text color="fg.muted">{t('game.settings.read_only')}</Text>}
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {NUMBER_FIELDS.map((key) => {
            const { min, max } = LIMITS[key];
            return (
              <Field.Root key={key} disabled={!editable}>
                <Field.Label>{t(`game.settings.${key}`)}</Field.Label>
                <Input
                  ref={key === NUMBER_FIELDS[0] ? firstFieldRef : undefined}
                  type="number"
                  inputMode="numeric"
                  min={min}
                  max={max}
                  step={1}
                  value={shown.numbers[key]}
                  onChange={(e) => setNumber(key, e.target.value)}
                  onBlur={(e) => setNumber(key, String(clampSetting(key, e.target.value)))}
                />
                <Field.HelperText>{t(TIMEOUTS.has(key) ? 'game.settings.range_off' : key === 'reveal_time' || key === 'disputes' ? `game.settings.${key}_range` : 'game.settings.range', { min, max })}</Field.HelperText>
              </Field.Root>
            );
          })}
        </SimpleGrid>

        <RadioGroup.Root
          value={shown.clue}
          onValueChange={({ value }) => {
            if (value) setDraft((d) => (d ? { ...d, clue: value as ClueChoice } : d));
          }}
          disabled={!editable}
          colorPalette="accent"
        >
          <RadioGroup.Label fontWeight="medium" display="block" mb="2">
            {t('game.settings.clue_mode')}
          </RadioGroup.Label>
          <Stack gap="1">
            {CLUE_CHOICES.filter((choice) => !local || choice !== 'dj').map((choice) => (
              <RadioGroup.Item key={choice} value={choice} minH="44px">
                <RadioGroup.ItemHiddenInput aria-describedby={choice === 'card' ? `${countId} ${trustId}` : choice === 'dj' ? `${countId} ${djTrustId}` : countId} />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t(clueLabel(choice))}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
          <PlayableCount id={countId} counts={counts} goal={clampSetting('goal', shown.numbers.goal)} players={players} choice={shown.clue} dj={!local} />
          {/* card mode is honour-based: the year of a card can be looked up */}
          <Text id={trustId} mt="2" fontSize="sm" color="fg.muted">
            {t('game.settings.clue_card_trust')}
          </Text>
        </RadioGroup.Root>

        {/* the DJ: who plays the hits from YouTube when the game plays with one */}
        {!local && shown.clue === 'dj' && (
          <DjChoice
            dj={shown.dj}
            plays={shown.djPlays}
            editable={editable}
            trustId={djTrustId}
            onDj={(dj) => setDraft((d) => (d ? { ...d, dj } : d))}
            onPlays={(djPlays) => setDraft((d) => (d ? { ...d, djPlays } : d))}
          />
        )}

        <Fieldset.Root disabled={!editable}>
          <Fieldset.Legend fontWeight="medium">{t('game.settings.packs')}</Fieldset.Legend>
          {!packsLoaded ? (
            <HStack role="status" gap="2">
              <Spinner size="sm" aria-hidden="true" />
              <Text>{t('game.settings.loading_packs')}</Text>
            </HStack>
          ) : allIds.length === 0 ? (
            <Text color="fg.muted">{t('game.settings.no_packs')}</Text>
          ) : (
            <Stack gap="3" mt="2">
              <HStack justify="space-between" wrap="wrap" gap="2">
                <Checkbox.Root
                  checked={selectAllState(shown.packs, allIds)}
                  onCheckedChange={() => setPacks(toggleAll(shown.packs, allIds))}
                  disabled={!editable}
                  colorPalette="accent"
                  minH="44px"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control>
                    <Checkbox.Indicator />
                  </Checkbox.Control>
                  <Checkbox.Label>{t('game.settings.all_packs')}</Checkbox.Label>
                </Checkbox.Root>
                <Text color="fg.muted" fontSize="sm" aria-live="polite">
                  {t('game.settings.selected', { count: known.length, total: allIds.length })}
                </Text>
              </HStack>
              <HStack gap="2" align="end" wrap="wrap">
                <Field.Root w="auto" disabled={!editable}>
                  <Field.Label>{t('game.settings.random_count')}</Field.Label>
                  <Input
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={allIds.length}
                    w="8rem"
                    value={randomCount}
                    onChange={(e) => setRandomCount(e.target.value)}
                    onBlur={(e) => setRandomCount(String(clampRandomCount(e.target.value, allIds.length)))}
                  />
                </Field.Root>
                <Button variant="outline" disabled={!editable} onClick={() => setPacks(randomPacks(allIds, clampRandomCount(randomCount, allIds.length)))}>
                  {t('game.settings.random')}
                </Button>
              </HStack>
              {noPack && (
                <Text color="fg.error" role="alert">
                  {t('game.settings.none_selected')}
                </Text>
              )}
              <Box>
                <Wrap gap="2">
                  {sorted.map((pack) => {
                    const on = shown.packs.has(pack.id);
                    const count = t('count.hits', { count: pack.hits });
                    return (
                      <Button
                        key={pack.id}
                        // name and count as one phrase; a visually hidden comma (a block
                        // in the button's flex row) got spaces around it: "1950s , 40 hits"
                        aria-label={`${pack.name}, ${count}`}
                        size="sm"
                        variant={on ? 'solid' : 'outline'}
                        colorPalette={on ? 'accent' : 'gray'}
                        aria-pressed={on}
                        disabled={!editable}
                        onClick={() => togglePack(pack.id)}
                        maxW="full"
                        whiteSpace="normal"
                        overflowWrap="anywhere"
                        textAlign="start"
                        h="auto"
                        py="2"
                      >
                        {pack.name}{' '}
                        <Badge size="sm" variant={on ? 'surface' : 'subtle'} colorPalette={on ? 'accent' : 'gray'}>
                          {count}
                        </Badge>
                      </Button>
                    );
                  })}
                </Wrap>
              </Box>
            </Stack>
          )}
        </Fieldset.Root>
        </form>
      </Stack>
    </AppDialog>
  );
}

/**
 * How many hits of the chosen packs can be played with audio (the server's count
 * of the selection as it stands in the dialog), and what that means for this
 * table: an audio game needs players × goal × 2 of them. It says what follows
 * for the choice: which mode an automatic start would pick now, or that a
 * chosen audio game could not start.
 */
/** The server's count of what the selection can deal (null while asking; 'failed': the dialog works without it). */
function usePlayableCounts(packs: readonly string[], open: boolean): PlayableCounts | 'failed' | null {
  const [counts, setCounts] = useState<PlayableCounts | 'failed' | null>(null);
  const key = [...packs].sort().join(',');
  useEffect(() => {
    if (!open) return;
    const abort = new AbortController();
    // a few pack toggles in a row ask once
    const timer = setTimeout(() => {
      playableCounts(key === '' ? [] : key.split(','), abort.signal).then(setCounts, () => {
        if (!abort.signal.aborted) setCounts('failed');
      });
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, open]);
  return key === '' ? 'failed' : counts;
}

function PlayableCount({ id, counts, goal, players, choice, dj }: { id: string; counts: PlayableCounts | 'failed' | null; goal: number; players: number; choice: ClueChoice; dj: boolean }) {
  const { t } = useTranslation();
  // no pack chosen (nothing to count: the dialog says to choose one), or no answer
  if (counts === 'failed') return null;
  const table = { players: Math.max(players, MIN_PLAYERS), goal, needed: hitsNeeded(Math.max(players, MIN_PLAYERS), goal) };
  if (counts === null) {
    return (
      <Text id={id} mt="2" fontSize="sm" color="fg.muted" data-testid="playable-count">
        {t('game.settings.playable_loading')}
      </Text>
    );
  }
  // what an automatic start would pick now, and what that means for the choice made
  const enoughAudio = autoClueMode(counts.audio, players, goal) === 'audio';
  const enoughVideo = counts.youtube >= table.needed;
  const verdict =
    choice === 'dj' ? (enoughVideo ? null : 'table:dj.settings.short_dj')
    : enoughAudio ? 'game.settings.playable_enough'
    : `game.settings.playable_short_${choice}`;
  const parts = [t('game.settings.playable', { audio: counts.audio, hits: counts.hits })];
  // the videos a DJ could play, where there are any (or a DJ is chosen); a Local game has no DJ
  if (dj && (counts.youtube > 0 || choice === 'dj')) parts.push(t('table:dj.settings.youtube', { youtube: counts.youtube }));
  if (verdict) parts.push(t(verdict, table));
  // music instead of cards: a DJ could play them (a DJ is the creator's choice, never the automatic one)
  if (dj && choice !== 'dj' && !enoughAudio && enoughVideo) parts.push(t('table:dj.settings.hint'));
  return (
    <Text id={id} mt="2" fontSize="sm" color="fg.muted" data-testid="playable-count">
      {parts.join(' ')}
    </Text>
  );
}

/**
 * Who the DJ is (the creator unless he names another player; only real
 * players, as only they have a device) and whether the DJ plays along, with
 * what that trusts.
 */
function DjChoice({ dj, plays, editable, trustId, onDj, onPlays }: { dj: string; plays: boolean; editable: boolean; trustId: string; onDj: (dj: string) => void; onPlays: (plays: boolean) => void }) {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players);
  const seated = (players ?? []).filter((p) => !p.virtual);
  const creator = seated.find((p) => p.creator);
  // the creator is '' (whoever creates the game then); a named player who left is the creator again
  const value = dj === '' || dj === creator?.id || !seated.some((p) => p.id === dj) ? '' : dj;
  return (
    <Stack gap="2" data-testid="dj-choice">
      <RadioGroup.Root value={value} onValueChange={({ value: v }) => onDj(v ?? '')} disabled={!editable} colorPalette="accent">
        <RadioGroup.Label fontWeight="medium" display="block" mb="2">
          {t('table:dj.settings.who')}
        </RadioGroup.Label>
        <Stack gap="1">
          {seated.map((p) => (
            <RadioGroup.Item key={p.id} value={p.creator ? '' : p.id} minH="44px">
              <RadioGroup.ItemHiddenInput aria-describedby={trustId} />
              <RadioGroup.ItemIndicator />
              <RadioGroup.ItemText overflowWrap="anywhere">{p.creator ? t('table:dj.settings.creator', { name: p.name }) : p.name}</RadioGroup.ItemText>
            </RadioGroup.Item>
          ))}
        </Stack>
      </RadioGroup.Root>
      <Checkbox.Root checked={plays} onCheckedChange={({ checked }) => onPlays(checked === true)} disabled={!editable} colorPalette="accent" minH="44px">
        <Checkbox.HiddenInput aria-describedby={trustId} />
        <Checkbox.Control>
          <Checkbox.Indicator />
        </Checkbox.Control>
        <Checkbox.Label>{t('table:dj.settings.plays')}</Checkbox.Label>
      </Checkbox.Root>
      <Text id={trustId} fontSize="sm" color="fg.muted">
        {t('table:dj.settings.trust')}
      </Text>
    </Stack>
  );
}
