import { Box, type BoxProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/**
 * A token: a round gold chip like the game's, with the count on
 * it. `<TokenChip count={3} />` is an image named "3 tokens"; `decorative`
 * hides it from screen readers where the count is said beside it. Other Box
 * props go to the root.
 */
export interface TokenChipProps extends Omit<BoxProps, 'children'> {
  count: number;
  /** Default `md`. */
  size?: TokenChipSize;
  /** Hidden from screen readers (the count is written or said beside it). */
  decorative?: boolean;
  /** The accessible name in place of "3 tokens". */
  label?: string;
}

export type TokenChipSize = 'sm' | 'md' | 'lg';

const SIZES: Record<TokenChipSize, { box: string; text: string; rim: string }> = {
  sm: { box: '1.75rem', text: '0.8125rem', rim: '2px' },
  md: { box: '2.5rem', text: '1.0625rem', rim: '3px' },
  lg: { box: '3.5rem', text: '1.5rem', rim: '4px' },
};

/** Gold with ink on it (≥ 9:1); the darker rim keeps the chip's edge visible on the light page (≥ 3:1). */
const GOLD = { face: '#f7c948', rim: '#8a5a00', ink: '#100e1c' } as const;

export function TokenChip({ count, size = 'md', decorative = false, label, ...rest }: TokenChipProps) {
  const { t } = useTranslation();
  const s = SIZES[size];
  const a11y = decorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label ?? t('count.tokens', { count }) };
  return (
    // spans: a chip sits in headings, buttons and sentences
    <Box
      as="span"
      {...a11y}
      position="relative"
      display="inline-flex"
      alignItems="center"
      justifyContent="center"
      flexShrink={0}
      width={s.box}
      height={s.box}
      borderRadius="full"
      color={GOLD.ink}
      bg={GOLD.face}
      // the chip's rim, and its notches like a poker chip's
      border={`${s.rim} solid ${GOLD.rim}`}
      bgImage={`repeating-conic-gradient(from 0deg, ${GOLD.rim} 0deg 10deg, transparent 10deg 45deg)`}
      boxShadow="raised"
      fontFamily="heading"
      fontWeight="800"
      fontSize={s.text}
      lineHeight="1"
      fontVariantNumeric="tabular-nums"
      data-count={count}
      {...rest}
    >
      {/* the inlay the count is printed on, leaving the notches round the edge */}
      <Box as="span" display="block" position="absolute" inset="14%" borderRadius="full" bg={GOLD.face} borderWidth="1px" borderStyle="dashed" borderColor={`${GOLD.rim}99`} />
      <Box as="span" position="relative">
        {count}
      </Box>
    </Box>
  );
}
