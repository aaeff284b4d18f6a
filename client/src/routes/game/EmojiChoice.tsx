import { Box, Flex } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { initials } from './table/PlayerAvatar.tsx';

/** The emoji offered to players (any single emoji is valid; these are one tap away). */
export const AVATAR_CHOICES = [
  { id: 'guitar', emoji: '🎸' },
  { id: 'microphone', emoji: '🎤' },
  { id: 'headphones', emoji: '🎧' },
  { id: 'trumpet', emoji: '🎺' },
  { id: 'drum', emoji: '🥁' },
  { id: 'saxophone', emoji: '🎷' },
  { id: 'fox', emoji: '🦊' },
  { id: 'panda', emoji: '🐼' },
  { id: 'octopus', emoji: '🐙' },
  { id: 'unicorn', emoji: '🦄' },
  { id: 'frog', emoji: '🐸' },
  { id: 'dinosaur', emoji: '🦖' },
  { id: 'rocket', emoji: '🚀' },
  { id: 'rainbow', emoji: '🌈' },
  { id: 'pizza', emoji: '🍕' },
  { id: 'star', emoji: '🌟' },
] as const;

/**
 * The emoji a player shows: radio buttons in a fieldset, so a
 * keyboard moves through them with the arrow keys and a screen reader says
 * "Fox, radio button, 8 of 17"; each a 48 px square on a phone. The first
 * choice is the player's initials ('').
 */
export function EmojiChoice({ value, onChange, name, legend }: { value: string; onChange: (avatar: string) => void; name: string; legend: string }) {
  const { t } = useTranslation();
  const group = useId();
  const options = [{ value: '', shown: initials(name), label: t('people:avatar.initials') }, ...AVATAR_CHOICES.map((c) => ({ value: c.emoji, shown: c.emoji, label: t(`people:avatar.names.${c.id}`) }))];
  return (
    <Box as="fieldset" minW="0" border="0" p="0" m="0">
      <Box as="legend" fontWeight="medium" textStyle="sm" mb="2">
        {legend}
      </Box>
      <Flex wrap="wrap" gap="2">
        {options.map((o) => {
          const checked = value === o.value;
          return (
            <Box
              as="label"
              key={o.value || 'initials'}
              position="relative"
              display="inline-flex"
              alignItems="center"
              justifyContent="center"
              minW="12"
              h="12"
              px={o.value ? '0' : '2'}
              borderRadius="l3"
              borderWidth="2px"
              colorPalette="accent"
              borderColor={checked ? 'colorPalette.solid' : 'border'}
              bg={checked ? 'colorPalette.subtle' : 'bg'}
              fontSize={o.value ? '2xl' : 'md'}
              fontWeight={o.value ? undefined : 'bold'}
              cursor="pointer"
              _hover={{ borderColor: checked ? 'colorPalette.solid' : 'border.emphasized' }}
              css={{ '&:has(input:focus-visible)': { outline: '3px solid', outlineColor: 'colorPalette.focusRing', outlineOffset: '2px' } }}
            >
              {/* the radio fills its square, invisible: a tap anywhere on it chooses, and the focus ring is the square's */}
              <input
                type="radio"
                name={group}
                value={o.value}
                checked={checked}
                aria-label={o.label}
                onChange={() => onChange(o.value)}
                style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', margin: 0, opacity: 0, cursor: 'pointer' }}
              />
              <span aria-hidden="true">{o.shown}</span>
            </Box>
          );
        })}
      </Flex>
    </Box>
  );
}
