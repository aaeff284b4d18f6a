import { Box, type BoxProps } from '@chakra-ui/react';
import { playerColor, schemeStyle } from './palette.ts';

/**
 * A player's face: a round badge in the player's colour
 * (palette.ts, 0–9) with an emoji the player chose, or else the initials of
 * the name.
 *
 * `<PlayerAvatar name="Ana Lima" colorIndex={0} avatar="" />` shows "AL".
 *
 * Decorative by default (hidden from screen readers): the name is always
 * written beside it. `labelled` makes it an image named by the player's name,
 * for a place where it stands alone. Other Box props go to the root.
 */
export interface PlayerAvatarProps extends Omit<BoxProps, 'children'> {
  name: string;
  /** The player's colour, 0–9 (any integer maps into the ten). */
  colorIndex: number;
  /** An emoji (its first character is shown), or '' for the initials. */
  avatar?: string;
  /** Default `md`. */
  size?: PlayerAvatarSize;
  /** Named for screen readers (role `img`, the player's name); default false: hidden from them. */
  labelled?: boolean;
}

export type PlayerAvatarSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

const SIZES: Record<PlayerAvatarSize, { box: string; text: string; emoji: string }> = {
  xs: { box: '1.5rem', text: '0.625rem', emoji: '0.875rem' },
  sm: { box: '2rem', text: '0.8125rem', emoji: '1.125rem' },
  md: { box: '2.5rem', text: '1rem', emoji: '1.375rem' },
  lg: { box: '3.5rem', text: '1.375rem', emoji: '2rem' },
  xl: { box: '5rem', text: '2rem', emoji: '2.875rem' },
};

const graphemes = (text: string): string[] =>
  typeof Intl.Segmenter === 'function' ? [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment) : [...text];

/**
 * The initials of a name: the first letters of its first and last words (a
 * word ends at a space, hyphen, underscore or dot: "gladly-brave-otter" is
 * "GO", "Ana Maria de Souza" "AS"), one letter for a one-word name, "?" for
 * none. Letters, not code units: an accented or emoji first character stays whole.
 */
export function initials(name: string): string {
  const words = name.trim().split(/[\s\-_.]+/u).filter(Boolean);
  const ends = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  const text = ends.map((w) => graphemes(w ?? '')[0] ?? '').join('');
  return text ? text.toLocaleUpperCase() : '?';
}

/** The avatar's one emoji (a longer string is cut to its first character, so no avatar overflows its circle). */
export const avatarGlyph = (avatar: string): string => graphemes(avatar.trim())[0] ?? '';

export function PlayerAvatar({ name, colorIndex, avatar = '', size = 'md', labelled = false, ...rest }: PlayerAvatarProps) {
  const s = SIZES[size];
  const glyph = avatarGlyph(avatar);
  const a11y = labelled ? { role: 'img', 'aria-label': name } : { 'aria-hidden': true };
  return (
    // a span: an avatar sits in headings, buttons and sentences
    <Box
      as="span"
      {...a11y}
      {...schemeStyle(playerColor(colorIndex))}
      display="inline-flex"
      alignItems="center"
      justifyContent="center"
      flexShrink={0}
      width={s.box}
      height={s.box}
      borderRadius="full"
      // an emoji in the system's colour emoji face (the display face has none)
      fontFamily={glyph ? 'body' : 'heading'}
      fontWeight="800"
      fontSize={glyph ? s.emoji : s.text}
      lineHeight="1"
      letterSpacing="-0.02em"
      userSelect="none"
      data-color-index={colorIndex}
      {...rest}
    >
      {glyph || initials(name)}
    </Box>
  );
}
