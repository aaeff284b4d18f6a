import './recipes.ts';
import './moments.css';
import { Box, Heading, HStack, Text, useBreakpointValue } from '@chakra-ui/react';
import { useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Actor, Tone } from '../../a11y/game-meaning.ts';
import { useGame, type FeedEntry } from '../../stores/game.ts';
import { FeedIcon } from './icons.tsx';
import { useTvStage } from './table/stage.ts';
import { PlayerAvatar } from './table/PlayerAvatar.tsx';

/** Entries on screen: the newest few (phones show the first PHONE_SHOWN of them). */
export const FEED_SHOWN = 5;
const PHONE_SHOWN = 3;

const TONE_COLOR: Record<Tone, string> = { good: 'green.fg', bad: 'red.fg', neutral: 'fg.muted' };

/**
 * What just happened, on screen: the newest entries of the game's
 * event feed first, the older ones fading. The entries are the meanings the
 * live region has just said (stores/game.ts: one source, same texts, same
 * order), so this is a plain list with no live semantics of its own: a screen
 * reader hears every event once, from the live region, and can still read the
 * feed by moving through the page (a heading, then a list).
 *
 * `at`: where the screen places it: `top`, a strip under the game's status on
 * phones and tablets; `side`, beside the table with the players from 992 px
 * (the design brief's desktop). Each placement renders only at its sizes, so
 * there is one feed on the page.
 */
export function EventFeed({ at = 'top' }: { at?: 'top' | 'side' }) {
  const { t } = useTranslation();
  const headingId = useId();
  const feed = useGame((s) => s.feed);
  const wide = useBreakpointValue({ base: false, lg: true }) ?? false;
  const entries = useMemo(() => feed.slice(-FEED_SHOWN).reverse(), [feed]);
  if (entries.length === 0 || wide !== (at === 'side')) return null;
  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      data-testid="event-feed"
      data-at={at}
      borderWidth="1px"
      borderRadius="l3"
      bg="bg.subtle"
      px="3"
      py="2"
      {...(at === 'top' ? { mt: '-2' } : { mb: '6' })}
    >
      <Heading as="h2" id={headingId} srOnly>
        {t('game.feed.heading')}
      </Heading>
      <Box as="ol" display="flex" flexDirection="column" gap="1">
        {entries.map((entry, age) => (
          <FeedItem key={entry.id} entry={entry} age={age} />
        ))}
      </Box>
    </Box>
  );
}

/**
 * How an entry of this age looks: the newest in full, the older ones smaller
 * and in the muted colour (faded, yet still WCAG AA: no transparency on top of
 * the muted colour, which has no contrast to spare).
 */
function ageStyle(age: number) {
  if (age === 0) return { color: 'fg', fontWeight: 'medium' };
  return { color: 'fg.muted', fontWeight: 'normal' };
}

function FeedItem({ entry, age }: { entry: FeedEntry; age: number }) {
  const style = ageStyle(age);
  // on the TV the feed is read from across the room
  const tv = useTvStage();
  const face = entry.actors.find((a) => a.color !== undefined);
  return (
    <HStack
      as="li"
      gap="2"
      align="start"
      textStyle={tv ? (age === 0 ? 'lg' : 'sm') : age === 0 ? 'sm' : 'xs'}
      lineHeight="short"
      display={{ base: age < PHONE_SHOWN ? 'flex' : 'none', md: 'flex' }}
      data-kind={entry.kind}
      data-tone={entry.tone}
      className={age === 0 ? 'hl-drop-in' : undefined}
    >
      <FeedIcon kind={entry.kind} color={TONE_COLOR[entry.tone]} mt="0.5" flexShrink={0} />
      {/* whose news it is, in his colour (decorative: the name is in the text) */}
      {face && <PlayerAvatar name={face.name} colorIndex={face.color ?? 0} avatar={face.avatar} size={tv && age === 0 ? 'sm' : 'xs'} mt="-0.5" />}
      <Text color={style.color} fontWeight={style.fontWeight} minW="0" overflowWrap="anywhere">
        {withNames(entry.text, entry.actors)}
      </Text>
    </HStack>
  );
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text with the players it names set in bold (as text nodes: names are typed by strangers). */
export function withNames(text: string, actors: readonly Actor[]): ReactNode[] {
  const names = [...new Set(actors.map((a) => a.name).filter((n) => n.trim() !== ''))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return [text];
  const parts = text.split(new RegExp(`(${names.map(escape).join('|')})`));
  return parts.map((part, i) =>
    i % 2 === 1 ? (
      <Text as="span" key={i} fontWeight="semibold" color="fg">
        {part}
      </Text>
    ) : (
      part
    ),
  );
}
