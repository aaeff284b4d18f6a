import { Box, Button, HStack, Icon, Progress, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '../../../../shared/rules/constants.ts';
import { notify } from '../../a11y/notify.ts';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/** The address of a hit's processed audio (`GET /api/hits/{hitId}/audio`, write_hits only). */
export const hitAudioUrl = (hitId: string, format?: 'opus' | 'mp3'): string =>
  `/api/hits/${encodeURIComponent(hitId)}/audio${format ? `?format=${format}` : ''}`;

/** How long a game's hidden hit plays unless its creator chose otherwise (the `hit_duration` setting). */
export const CLIP_SECONDS = LIMITS.hit_duration.default;

/** m:ss */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const PLAY = 'M7 4l12 8-12 8z';
const STOP = 'M6 6h12v12H6z';

/**
 * The processed file of a hit, for editors ("a curator hears
 * what players will hear"). The pipeline cuts the file at the playback offset
 * (transcode.ts), so it starts where a game starts it. A Play button plays it as
 * a game's hidden hit: from its start, stopped after the default clip length,
 * with the position shown (and spoken as "0:07 of 0:20"); Stop ends it and
 * rewinds. Below, the browser's own controls (keyboard and screen-reader ready)
 * play and seek the whole file, as a revealed hit plays. Opus first and MP3 for
 * browsers that cannot play Ogg Opus; only metadata loads until it is played.
 * The server has the browser revalidate the file by ETag, so a re-processed hit
 * (new offset) plays its new cut under the same address.
 */
export function HitAudioPlayer({ hitId, label }: { hitId: string; label: string }) {
  const t = useHitsT();
  const noteId = useId();
  const positionId = useId();
  const audio = useRef<HTMLAudioElement>(null);
  const [failed, setFailed] = useState(false);
  // the clip plays (started by the Play button, not by the browser's controls)
  const [clip, setClip] = useState(false);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState<number | null>(null);
  const length = duration !== null && Number.isFinite(duration) ? Math.min(CLIP_SECONDS, duration) : CLIP_SECONDS;
  const clipRef = useRef(false);
  clipRef.current = clip;

  useEffect(() => {
    setFailed(false);
    setClip(false);
    setPosition(0);
    setDuration(null);
  }, [hitId]);

  const stop = (ended: boolean): void => {
    const a = audio.current;
    setClip(false);
    if (a) {
      a.pause();
      a.currentTime = 0;
    }
    setPosition(0);
    if (ended) notify.notification(t('audio.clip_ended'), { toast: false });
  };

  // the media events call the stop of the latest render (its words in the current language)
  const stopRef = useRef(stop);
  stopRef.current = stop;

  const play = async (): Promise<void> => {
    const a = audio.current;
    if (!a) return;
    a.currentTime = 0;
    setPosition(0);
    setClip(true);
    try {
      await a.play();
    } catch {
      // refused (no user gesture) or no playable source: the error handler says the latter
      setClip(false);
    }
  };

  useEffect(() => {
    const a = audio.current;
    if (!a) return;
    const onTime = (): void => {
      if (!clipRef.current) return;
      if (a.currentTime >= CLIP_SECONDS) return stopRef.current(true);
      setPosition(a.currentTime);
    };
    const onEnd = (): void => {
      if (clipRef.current) stopRef.current(true);
    };
    // paused by the browser's controls: the clip is over
    const onPause = (): void => {
      if (clipRef.current && !a.ended && a.currentTime < CLIP_SECONDS) setClip(false);
    };
    const onMeta = (): void => setDuration(a.duration);
    a.addEventListener('timeupdate', onTime);
    a.addEventListener('ended', onEnd);
    a.addEventListener('pause', onPause);
    a.addEventListener('loadedmetadata', onMeta);
    if (a.readyState >= HTMLMediaElement.HAVE_METADATA) onMeta();
    return () => {
      a.removeEventListener('timeupdate', onTime);
      a.removeEventListener('ended', onEnd);
      a.removeEventListener('pause', onPause);
      a.removeEventListener('loadedmetadata', onMeta);
    };
    // a new element only after a failure was shown (a new hit is a new source in the same element)
  }, [failed]);

  if (failed) {
    return (
      <Stack gap="1" w="full" maxW="md">
        <Text role="alert" textStyle="sm" color="red.fg">
          {t('audio.player_failed')}
        </Text>
      </Stack>
    );
  }

  const positionText = t('audio.position', { position: clock(Math.min(position, length)), length: clock(length) });
  return (
    <Stack gap="2" w="full" maxW="md">
      <HStack gap="3" wrap="wrap" align="center">
        <Button
          colorPalette="accent"
          variant={clip ? 'solid' : 'outline'}
          minH="44px"
          onClick={() => (clip ? stop(false) : void play())}
          aria-describedby={positionId}
          data-testid="hit-clip-button"
        >
          <Icon boxSize="4" aria-hidden="true">
            <svg viewBox="0 0 24 24" fill="currentColor" focusable="false">
              <path d={clip ? STOP : PLAY} />
            </svg>
          </Icon>
          {clip ? t('audio.clip_stop') : t('audio.clip_play', { count: Math.max(1, Math.round(length)) })}
        </Button>
        <Text id={positionId} textStyle="sm" fontVariantNumeric="tabular-nums" color={clip ? 'fg' : 'fg.muted'}>
          {positionText}
        </Text>
      </HStack>
      <Progress.Root value={Math.min(position, length)} max={length} colorPalette="accent" size="sm" w="full">
        {/* named and read as "0:07 of 0:20", not as a bare percentage; the text beside it says the same */}
        <Progress.Track aria-label={t('audio.position_label')} aria-valuetext={positionText}>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Box asChild w="full" minH="44px" display="block">
        <audio ref={audio} controls preload="metadata" aria-label={label} aria-describedby={noteId} data-testid="hit-audio">
          <source src={hitAudioUrl(hitId, 'opus')} type="audio/ogg; codecs=opus" />
          {/* the element tries the sources in order; an error on the last one means none could be played */}
          <source src={hitAudioUrl(hitId, 'mp3')} type="audio/mpeg" onError={() => setFailed(true)} />
        </audio>
      </Box>
      <Text id={noteId} textStyle="sm" color="fg.muted">
        {t('audio.player_note', { count: CLIP_SECONDS })}
      </Text>
    </Stack>
  );
}
