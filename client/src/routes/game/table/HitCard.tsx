import { Box, type BoxProps, Text } from '@chakra-ui/react';
import { domAnimation, LazyMotion, m } from 'motion/react';
import { useTranslation } from 'react-i18next';
import { useCalmMotion } from './motion.tsx';
import { decadeOf, INK, schemeStyle } from './palette.ts';

/**
 * A hit card, shaped like the physical game's: a rounded
 * square in its decade's colour, the year as the largest text (display face),
 * artist above and title below (small, clamped to one or two lines; the whole
 * text is in the accessible name).
 *
 * Face up: `<HitCard year={1985} artist="a-ha" title="Take On Me" />`.
 *
 * The mystery card: `<HitCard mystery playing={…} />` is face down (a record
 * sleeve's back, no year), with a pulsing ring while its audio plays; in card
 * clue mode pass `artist` and `title` and it shows them, still without the
 * year. `revealed` (with `year`) turns it face up: a flip, or a fade when the
 * user prefers reduced motion. It flips when `revealed` changes; a card
 * mounted already revealed shows its face at once.
 *
 * The card is one image for screen readers (role `img`), named by its text
 * ("1985: Take On Me by a-ha", "Hidden hit", "Hidden hit, playing", with the
 * outcome when given); `label` replaces that name. Other Box props (margins,
 * `flexShrink`, `data-*`) go to the card's root.
 */
export interface HitCardProps extends Omit<BoxProps, 'title' | 'children'> {
  /** The release year; needed face up (without `mystery`) and for `revealed`. */
  year?: number | null;
  artist?: string | null;
  title?: string | null;
  /** `lg`: the turn player's row and the TV; `md`: rows; `sm`: compact rows. Default `md`. */
  size?: HitCardSize;
  /** Face down: the card being guessed. */
  mystery?: boolean;
  /** A mystery card turned face up (needs `year`). */
  revealed?: boolean;
  /** Its audio is playing: a pulsing ring (a still one with reduced motion). */
  playing?: boolean;
  /** After a reveal: a green or red ring and mark; said in the name too. */
  outcome?: 'correct' | 'wrong' | null;
  /** The accessible name, in place of the card's own. */
  label?: string;
}

export type HitCardSize = 'sm' | 'md' | 'lg' | 'xl';

interface SizeStyle {
  box: BoxProps['width'];
  year: BoxProps['fontSize'];
  meta: BoxProps['fontSize'];
  lines: number;
  pad: BoxProps['padding'];
  mark: BoxProps['width'];
}

/** Sizes in rem, so they follow the user's text size; `lg` grows on a TV (≥ 1400 px); `xl` is the TV view's row. */
const SIZES: Record<HitCardSize, SizeStyle> = {
  sm: { box: '5.75rem', year: '1.625rem', meta: '0.6875rem', lines: 1, pad: '1.5', mark: '1.25rem' },
  md: { box: '8rem', year: '2.375rem', meta: '0.75rem', lines: 2, pad: '2', mark: '1.5rem' },
  lg: {
    box: { base: '10.5rem', '2xl': '14rem' },
    year: { base: '3.375rem', '2xl': '4.5rem' },
    meta: { base: '0.875rem', '2xl': '1.125rem' },
    lines: 2,
    pad: { base: '3', '2xl': '4' },
    mark: { base: '2rem', '2xl': '2.5rem' },
  },
  // the turn player's row on the TV (the page's type is scaled to the screen there)
  xl: { box: '11rem', year: '3.5rem', meta: '1rem', lines: 2, pad: '3', mark: '2rem' },
};

/** The card's accessible name. */
function useCardLabel({ year, artist, title, mystery, revealed, playing, outcome, label }: HitCardProps): string {
  const { t } = useTranslation();
  if (label) return label;
  const faceUp = !mystery || revealed;
  let name: string;
  if (faceUp && year != null) name = t('table:card.label', { year, artist: artist ?? '', title: title ?? '' });
  else if (artist || title) name = t('table:card.hidden_clue', { artist: artist ?? '', title: title ?? '' });
  else name = t('table:card.hidden');
  if (playing && !faceUp) name = t('table:card.playing', { card: name });
  if (outcome) name = t(`table:card.${outcome}`, { card: name });
  return name;
}

export function HitCard(props: HitCardProps) {
  const { year, artist, title, size = 'md', mystery = false, revealed = false, playing = false, outcome = null, label: _label, ...rest } = props;
  const name = useCardLabel(props);
  const s = SIZES[size];
  const faceUp = !mystery || (revealed && year != null);
  return (
    <Box
      role="img"
      aria-label={name}
      position="relative"
      flexShrink={0}
      width={s.box}
      height={s.box}
      data-card={mystery ? (faceUp ? 'revealed' : 'mystery') : 'face'}
      data-size={size}
      {...rest}
    >
      {mystery ? (
        <FlipCard faceUp={faceUp} playing={playing && !faceUp} size={s} year={year} artist={artist} title={title} />
      ) : (
        <CardFace year={year ?? null} artist={artist} title={title} size={s} />
      )}
      {outcome && <OutcomeMark outcome={outcome} size={s} />}
    </Box>
  );
}

/** The card's edge and surface, shared by both sides. */
const sideStyle = {
  position: 'absolute',
  inset: '0',
  borderRadius: 'card',
  overflow: 'hidden',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'space-between',
  textAlign: 'center',
  boxShadow: 'raised',
} as const;

/**
 * Artist or title: clamped to `lines` lines (the full text stays in the card's
 * name) in a box of that height, so the year sits at the same place on every card.
 */
function Meta({ children, size, weight }: { children: string; size: SizeStyle; weight: 'semibold' | 'normal' }) {
  return (
    <Box fontSize={size.meta} lineHeight="1.2" height={`${size.lines * 1.2}em`} width="full" display="flex" alignItems="center" justifyContent="center" flexShrink={0}>
      <Text fontWeight={weight} width="full" overflowWrap="anywhere" lineClamp={size.lines}>
        {children}
      </Text>
    </Box>
  );
}

/** The face: decade colour, artist, the year, title. */
function CardFace({ year, artist, title, size }: { year: number | null; artist?: string | null; title?: string | null; size: SizeStyle }) {
  const decade = decadeOf(year ?? 0);
  return (
    <Box {...sideStyle} {...schemeStyle(decade)} padding={size.pad} borderWidth="1px" borderColor={`${INK}1f`} aria-hidden="true">
      <Meta size={size} weight="semibold">
        {artist ?? ''}
      </Meta>
      <Text fontFamily="heading" fontWeight="800" fontSize={size.year} lineHeight="1" letterSpacing="-0.02em" fontVariantNumeric="tabular-nums">
        {year ?? ''}
      </Text>
      <Meta size={size} weight="normal">
        {title ?? ''}
      </Meta>
    </Box>
  );
}

/**
 * The back: a dark sleeve with a record's grooves and a question mark, in
 * both schemes (a card's back is dark like the game's); clue mode adds artist
 * and title in white.
 */
function CardBack({ artist, title, size }: { artist?: string | null; title?: string | null; size: SizeStyle }) {
  const clue = !!(artist || title);
  return (
    <Box
      {...sideStyle}
      padding={size.pad}
      color="white"
      bg="#1d1340"
      bgImage={`radial-gradient(circle at 50% 50%, transparent 0 18%, rgba(255,255,255,0.07) 18.5% 19%, transparent 19.5% 26%, rgba(255,255,255,0.06) 26.5% 27%, transparent 27.5% 34%, rgba(255,255,255,0.05) 34.5% 35%, transparent 35.5%), linear-gradient(145deg, #2a1a5e 0%, #1d1340 55%, #5a0f3c 100%)`}
      borderWidth="1px"
      borderColor="whiteAlpha.300"
      aria-hidden="true"
    >
      {clue ? (
        <Meta size={size} weight="semibold">
          {artist ?? ''}
        </Meta>
      ) : (
        <Spacer size={size} />
      )}
      <Text fontFamily="heading" fontWeight="800" fontSize={size.year} lineHeight="1" color="accent.300">
        ?
      </Text>
      {clue ? (
        <Meta size={size} weight="normal">
          {title ?? ''}
        </Meta>
      ) : (
        <Spacer size={size} />
      )}
    </Box>
  );
}

/** The room of an artist or title line on a card without one. */
const Spacer = ({ size }: { size: SizeStyle }) => <Box fontSize={size.meta} height={`${size.lines * 1.2}em`} />;

interface FlipProps {
  faceUp: boolean;
  playing: boolean;
  size: SizeStyle;
  year?: number | null;
  artist?: string | null;
  title?: string | null;
}

const FLIP = { duration: 0.6, ease: [0.2, 0.8, 0.2, 1] } as const;

/** The mystery card: back, and once revealed the face, turned over (or faded across with reduced motion). */
function FlipCard({ faceUp, playing, size, year, artist, title }: FlipProps) {
  const calm = useCalmMotion();
  const back = <CardBack artist={artist} title={title} size={size} />;
  const face = faceUp && year != null ? <CardFace year={year} artist={artist} title={title} size={size} /> : null;
  // motion's light build (m + only the features used), loaded here also outside a TableMotion
  return (
    <LazyMotion features={domAnimation}>
      {playing && <PlayingRing calm={calm} />}
      {calm ? (
        <>
          <m.div style={{ position: 'absolute', inset: 0 }} initial={false} animate={{ opacity: faceUp ? 0 : 1 }} transition={{ duration: 0.4 }}>
            {back}
          </m.div>
          {face && (
            <m.div style={{ position: 'absolute', inset: 0 }} initial={{ opacity: 0 }} animate={{ opacity: 1 }} transition={{ duration: 0.4 }} data-turn="fade">
              {face}
            </m.div>
          )}
        </>
      ) : (
        <div style={{ position: 'absolute', inset: 0, perspective: '800px' }} data-turn={face ? 'flip' : undefined}>
          <m.div
            style={{ position: 'absolute', inset: 0, transformStyle: 'preserve-3d' }}
            initial={false}
            animate={{ rotateY: faceUp ? 180 : 0 }}
            transition={FLIP}
          >
            <div style={{ position: 'absolute', inset: 0, backfaceVisibility: 'hidden', WebkitBackfaceVisibility: 'hidden' }}>{back}</div>
            {face && (
              <div style={{ position: 'absolute', inset: 0, backfaceVisibility: 'hidden', WebkitBackfaceVisibility: 'hidden', transform: 'rotateY(180deg)' }}>{face}</div>
            )}
          </m.div>
        </div>
      )}
    </LazyMotion>
  );
}

/** The ring round a playing mystery card: it pulses outwards, or stays still with reduced motion. */
function PlayingRing({ calm }: { calm: boolean }) {
  return (
    <Box
      position="absolute"
      inset="-6px"
      borderRadius="calc(var(--chakra-radii-card) + 6px)"
      borderWidth="3px"
      borderColor="accent.focusRing"
      boxShadow="glow"
      aria-hidden="true"
      data-playing-ring=""
    >
      {!calm && (
        <m.div
          style={{ position: 'absolute', inset: -3, borderRadius: 'inherit', border: '3px solid var(--chakra-colors-accent-focus-ring)' }}
          initial={{ scale: 1, opacity: 0.8 }}
          animate={{ scale: 1.12, opacity: 0 }}
          transition={{ duration: 1.3, repeat: Infinity, ease: 'easeOut' }}
        />
      )}
    </Box>
  );
}

/** A correct or wrong card's mark: a round badge on its corner with a tick or a cross, and a ring in the same colour. */
function OutcomeMark({ outcome, size }: { outcome: 'correct' | 'wrong'; size: SizeStyle }) {
  const correct = outcome === 'correct';
  const palette = correct ? 'green' : 'red';
  return (
    <>
      <Box position="absolute" inset="-4px" borderRadius="calc(var(--chakra-radii-card) + 4px)" borderWidth="3px" borderColor={`${palette}.solid`} aria-hidden="true" pointerEvents="none" />
      <Box
        position="absolute"
        top="-0.5rem"
        insetEnd="-0.5rem"
        width={size.mark}
        height={size.mark}
        borderRadius="full"
        bg={`${palette}.solid`}
        color={`${palette}.contrast`}
        display="flex"
        alignItems="center"
        justifyContent="center"
        boxShadow="raised"
        aria-hidden="true"
        data-outcome={outcome}
      >
        <svg viewBox="0 0 24 24" width="60%" height="60%" fill="none" stroke="currentColor" strokeWidth="3.5" strokeLinecap="round" strokeLinejoin="round">
          {correct ? <path d="M5 12.5l4.5 4.5L19 7.5" /> : <path d="M6.5 6.5l11 11M17.5 6.5l-11 11" />}
        </svg>
      </Box>
    </>
  );
}
