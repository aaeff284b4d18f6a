import { AspectRatio, Box, Center, Link, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';
import { embedUrl, watchUrl } from './video-url.ts';

/** The player's origin (privacy-enhanced mode, allowed by the server's CSP frame-src). */
const PLAYER_ORIGIN = 'https://www.youtube-nocookie.com';
/** How long the player may take to answer before the placeholder replaces it. */
export const PLAYER_TIMEOUT_MS = 10_000;

type PlayerState = 'loading' | 'ready' | 'failed';

/**
 * Knows whether the YouTube player really loaded: a frame's `load` event also
 * fires for the browser's own error page (offline, blocked, filtered), so it
 * proves nothing. With `enablejsapi=1` the player answers the IFrame API's
 * "listening" handshake by postMessage; no answer in time means it did not load.
 */
function usePlayerState(frame: RefObject<HTMLIFrameElement | null>, src: string | null): [PlayerState, () => void] {
  const [state, setState] = useState<PlayerState>('loading');
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    setState('loading');
    setLoaded(0);
  }, [src]);

  useEffect(() => {
    if (!src) return;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      setState('failed');
      return;
    }
    const onMessage = (e: MessageEvent): void => {
      if (e.origin === PLAYER_ORIGIN && e.source === frame.current?.contentWindow) setState((s) => (s === 'loading' ? 'ready' : s));
    };
    window.addEventListener('message', onMessage);
    // the handshake is repeated until the player answers (its script may start after the load event)
    const ping = loaded
      ? setInterval(() => frame.current?.contentWindow?.postMessage(JSON.stringify({ event: 'listening', id: 1, channel: 'widget' }), PLAYER_ORIGIN), 500)
      : undefined;
    const timeout = setTimeout(() => setState((s) => (s === 'loading' ? 'failed' : s)), PLAYER_TIMEOUT_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearInterval(ping);
      clearTimeout(timeout);
    };
  }, [src, loaded, frame]);

  return [state, () => setLoaded((n) => n + 1)];
}

/**
 * The hit's video (docs/product.md#screens "an embedded video player starting at the playback
 * offset"): YouTube's iframe player, or a placeholder that says why there is
 * none (no video id, or the player could not load), with a plain link to the
 * video either way.
 */
export function VideoPlayer({ ytId, offset, label }: { ytId: string | null; offset: number; label: string }) {
  const t = useHitsT();
  const frame = useRef<HTMLIFrameElement>(null);
  const origin = typeof window !== 'undefined' ? window.location.origin : '';
  const src = ytId ? `${embedUrl(ytId, offset)}&enablejsapi=1&origin=${encodeURIComponent(origin)}` : null;
  const [state, onLoad] = usePlayerState(frame, src);

  const placeholder = (text: string) => (
    <Center bg="bg.muted" borderWidth="1px" borderStyle="dashed" borderRadius="l2" p="4" textAlign="center">
      <Text color="fg.muted">{text}</Text>
    </Center>
  );

  return (
    <Stack gap="2" maxW="2xl" w="full">
      <AspectRatio ratio={16 / 9} w="full">
        {!src
          ? placeholder(t('video.none'))
          : state === 'failed'
            ? placeholder(t('video.failed'))
            : (
              // the frame is transparent until the player paints over the loading text
              <Box position="relative" borderRadius="l2" overflow="hidden" bg="bg.muted">
                <Center position="absolute" inset="0" p="4" textAlign="center" aria-hidden="true">
                  <Text color="fg.muted">{t('video.loading')}</Text>
                </Center>
                <Box asChild position="absolute" inset="0" w="full" h="full" border="0">
                  <iframe
                    ref={frame}
                    src={src}
                    title={label}
                    onLoad={onLoad}
                    loading="lazy"
                    allow="encrypted-media; picture-in-picture; fullscreen"
                    allowFullScreen
                    referrerPolicy="strict-origin-when-cross-origin"
                  />
                </Box>
              </Box>
            )}
      </AspectRatio>
      {ytId && (
        <Text textStyle="sm">
          <Link href={watchUrl(ytId)} target="_blank" rel="noopener noreferrer" color="accent.fg" minH="44px" display="inline-flex" alignItems="center">
            {t('video.open')}
          </Link>
        </Text>
      )}
    </Stack>
  );
}
