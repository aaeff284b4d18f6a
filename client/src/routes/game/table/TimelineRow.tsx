import '../recipes.ts';
import { Box, chakra, HStack, Stack, Text, useBreakpointValue } from '@chakra-ui/react';
import { useDroppable } from '@dnd-kit/core';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { HitPayload, PlayerPayload } from '../../../../../shared/protocol/game.ts';
import { notify } from '../../../a11y/notify.ts';
import { useGame } from '../../../stores/game.ts';
import type { GuessModel } from '../game-logic.ts';
import { listNames } from '../GuessPanel.tsx';
import { gapLabel, gapView, rowEntries, rowFocus, type GapView } from './table-logic.ts';
import { HitCard } from './HitCard.tsx';
import { playerColor } from './palette.ts';
import { PlayerAvatar } from './PlayerAvatar.tsx';
import { useTable } from './table-store.ts';

/** One empty list: a selector must not return a new array on every call. */
const NO_PLAYERS: readonly PlayerPayload[] = [];

/** `tv`: the turn player's row on the TV view, its cards bigger still. */
export type RowSize = 'tv' | 'large' | 'compact';

/** The card size of a row: the turn player's is the big one (from `md`); the others are compact. */
type CardSize = 'sm' | 'md' | 'xl';
/** HitCard's square sizes (rem, they follow the text size), for the gaps' height. */
const CARD_REM: Record<CardSize, string> = { sm: '5.75rem', md: '8rem', xl: '11rem' };

/**
 * A timeline as a row of cards in year order (year large, artist and title
 * small). The turn player's row has its gaps between the cards: while this
 * device picks, a tap on a free gap chooses it and a dragged mystery card can
 * be dropped there (it grows as the card hovers); a gap someone took shows his
 * name. On a phone the row scrolls sideways (snapping to the cards) and keeps
 * the chosen gap, or else the newest card, in view; from `md` it wraps.
 *
 * The gaps are pointer targets only, hidden from screen readers: the radio
 * buttons of the guess panel are the one accessible control for the same
 * choice (the game store's `choice`), so a keyboard or screen-reader user
 * meets each gap once, as a radio button, and the radio that has the focus
 * shows its focus ring on its gap here.
 */
export function TimelineRow({ player, size, model, labelId }: { player: PlayerPayload; size: RowSize; model?: GuessModel | null; labelId: string }) {
  const { t } = useTranslation();
  const players = useGame((s) => s.game?.players ?? NO_PLAYERS);
  const choice = useGame((s) => s.choice);
  const focused = useTable((s) => s.focused);
  const entries = useMemo(() => rowEntries(player.hits), [player.hits]);
  const withGaps = size !== 'compact';
  const scroller = useRef<HTMLDivElement>(null);
  const wide = useBreakpointValue({ base: false, md: true }) ?? false;
  const cardSize: CardSize = size === 'compact' || !wide ? 'sm' : size === 'tv' ? 'xl' : 'md';

  // the chosen or focused gap, else the newest card, scrolled into the row's view: sideways only,
  // the page itself never moves (scrollIntoView would scroll it too, and could push the card off screen)
  const target = rowFocus(withGaps ? choice : null, withGaps ? focused : undefined, player);
  const targetKey = target ? ('gap' in target ? `gap-${target.gap}` : `card-${target.card}`) : null;
  useEffect(() => {
    const box = scroller.current;
    if (!box || !targetKey) return;
    const el = box.querySelector<HTMLElement>(`[data-row-item="${targetKey}"]`);
    if (!el || box.scrollWidth <= box.clientWidth) return;
    const boxRect = box.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (r.left >= boxRect.left && r.right <= boxRect.right) return;
    const left = box.scrollLeft + (r.left - boxRect.left) - (boxRect.width - r.width) / 2;
    const reduce = typeof matchMedia !== 'undefined' && matchMedia('(prefers-reduced-motion: reduce)').matches;
    box.scrollTo?.({ left, behavior: reduce ? 'auto' : 'smooth' });
  }, [targetKey, entries]);

  if (entries.length === 0) {
    return (
      <Text color="fg.muted" fontSize="sm">
        {t('table:row.empty')}
      </Text>
    );
  }

  const gap = (slot: Parameters<typeof gapView>[0]) => <Gap key={`gap-${slot.id}`} view={gapView(slot, players, model ?? null, choice)} cardSize={cardSize} />;

  return (
    <Box
      ref={scroller}
      // the phone's row scrolls sideways, snapping to the cards; wide screens wrap it
      overflowX={{ base: 'auto', md: 'visible' }}
      scrollSnapType={{ base: 'x proximity', md: 'none' }}
      scrollPaddingInline="3"
      overscrollBehaviorX="contain"
      pb={{ base: '2', md: '0' }}
      // edge to edge on a phone (the page's own padding), so the row uses the whole width
      mx={{ base: '-3', md: '0' }}
      px={{ base: '3', md: '0' }}
      data-testid={`row-${player.id}`}
    >
      <chakra.ol
        // a short turn row sits in the middle of the phone
        mx={withGaps ? 'auto' : '0'}
        my="0"
        aria-labelledby={labelId}
        display="flex"
        flexWrap={{ base: 'nowrap', md: 'wrap' }}
        justifyContent={withGaps ? 'center' : 'flex-start'}
        alignItems="flex-end"
        rowGap="3"
        columnGap={withGaps ? '0' : '1.5'}
        listStyleType="none"
        p="0"
        w={{ base: 'max-content', md: 'auto' }}
      >
        {entries.map(({ hit, before, after }) => (
          <chakra.li key={hit.id} display="flex" alignItems="flex-end" flexShrink={0} scrollSnapAlign="center">
            {withGaps && before && gap(before)}
            <RowCard hit={hit} size={cardSize} dataKey={`card-${hit.id}`} />
            {withGaps && after && gap(after)}
          </chakra.li>
        ))}
      </chakra.ol>
    </Box>
  );
}

/** A card of a row: the table's card face (decade colour, the year large), named for screen readers by its own label. */
function RowCard({ hit, size, dataKey }: { hit: HitPayload; size: CardSize; dataKey: string }) {
  return <HitCard data-row-item={dataKey} year={hit.year} artist={hit.artist} title={hit.title} size={size} />;
}

/**
 * A gap between two cards (a slot). A free gap is a 44 px wide target that
 * shows its years on hover and focus, and grows into the card's outline when
 * chosen or when the dragged card hovers over it; a taken one shows who took it.
 */
function Gap({ view, cardSize }: { view: GapView; cardSize: CardSize }) {
  const { t } = useTranslation();
  const { slot, takers, choosable, chosen } = view;
  const focused = useTable((s) => s.focused === slot.id);
  const dragging = useTable((s) => s.dragging);
  const { setNodeRef, isOver } = useDroppable({ id: `gap-${slot.id}`, disabled: !choosable, data: { slot: slot.id } });
  const taken = takers.length > 0;
  const open = chosen || isOver;
  const label = gapLabel(slot, (key, params) => t(key, params ?? {}));
  const height = CARD_REM[cardSize];
  // a taken gap's edge in the colour of who took it first
  const first = takers[0];
  const takerColor = first ? { base: playerColor(first.color).light.bg, _dark: playerColor(first.color).dark.bg } : undefined;

  const choose = (): void => {
    if (!choosable) return;
    useGame.getState().setChoice(slot.id);
    notify.playSfx('select_slot');
  };

  return (
    <Box
      ref={setNodeRef}
      data-row-item={`gap-${slot.id}`}
      data-gap={slot.id}
      data-chosen={chosen || undefined}
      data-taken={taken || undefined}
      data-focused={focused || undefined}
      data-choosable={choosable || undefined}
      // a pointer target only: the guess panel's radio buttons are this control for keyboards and screen readers
      aria-hidden="true"
      onClick={choose}
      cursor={choosable ? 'pointer' : undefined}
      flexShrink={0}
      display="flex"
      flexDirection="column"
      alignItems="center"
      justifyContent="flex-end"
      gap="1"
      minW="44px"
      w={taken ? 'auto' : open ? height : dragging && choosable ? '56px' : '44px'}
      px={taken ? '1' : '0'}
      transition="width 0.18s ease-out"
      css={{ '@media (prefers-reduced-motion: reduce)': { transition: 'none' } }}
      className="group"
      scrollSnapAlign="center"
    >
      {/* the years, shown on hover, focus, drag and choice */}
      <Text
        fontSize="xs"
        fontWeight="semibold"
        whiteSpace="nowrap"
        minH="4"
        color={chosen ? 'accent.fg' : 'fg.muted'}
        visibility={open || focused || taken ? 'visible' : 'hidden'}
        _groupHover={choosable ? { visibility: 'visible' } : undefined}
      >
        {taken ? '' : label}
      </Text>
      <Box
        h={height}
        w="full"
        display="flex"
        alignItems="center"
        justifyContent="center"
        borderRadius="card"
        borderWidth={open || taken ? '2px' : '0'}
        borderStyle={open ? 'dashed' : 'solid'}
        borderColor={chosen ? 'accent.solid' : taken ? takerColor : 'accent.muted'}
        bg={chosen ? 'accent.subtle' : taken ? 'bg.subtle' : isOver ? 'accent.subtle' : undefined}
        outline={focused ? '3px solid' : undefined}
        outlineColor={focused ? 'accent.focusRing' : undefined}
        outlineOffset="1px"
        _groupHover={choosable && !open ? { bg: 'accent.subtle' } : undefined}
        position="relative"
      >
        {taken ? (
          // who took it: their faces in their colours, and their names
          <Stack gap="1" align="center" px="1" maxW="20">
            <HStack gap="-1.5" justify="center">
              {takers.map((p) => (
                <PlayerAvatar key={p.id} name={p.name} colorIndex={p.color} avatar={p.avatar} size="sm" borderWidth="2px" borderColor="bg" />
              ))}
            </HStack>
            <Text fontSize="2xs" fontWeight="semibold" lineClamp={2} textAlign="center" wordBreak="break-word">
              {t('table:row.taken', { names: listNames(takers.map((p) => p.name)) })}
            </Text>
          </Stack>
        ) : open ? (
          <Text fontSize="2xl" fontWeight="bold" color="accent.fg">
            ?
          </Text>
        ) : (
          // the slot itself: a thin line between the cards, stronger where a gap can be chosen
          <Box w="3px" h="60%" borderRadius="full" bg={choosable ? 'accent.solid' : 'border'} opacity={choosable ? 0.7 : 0.5} />
        )}
      </Box>
    </Box>
  );
}
