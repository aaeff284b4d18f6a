import { Box, Stack, Text } from '@chakra-ui/react';
import { useEffect, useId, useState } from 'react';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/** The address of a hit's processed audio (`GET /api/hits/{hitId}/audio`, write_hits only). */
export const hitAudioUrl = (hitId: string, format?: 'opus' | 'mp3'): string =>
  `/api/hits/${encodeURIComponent(hitId)}/audio${format ? `?format=${format}` : ''}`;

/**
 * The processed file of a hit (issue 8: "the audio status with a player for
 * the processed file"), for editors: the browser's own audio controls
 * (keyboard and screen-reader ready), Opus first and MP3 for browsers that
 * cannot play Ogg Opus. Only metadata loads until it is played. The server
 * has the browser revalidate the file by ETag, so a re-processed hit (new
 * offset) plays its new cut under the same address.
 */
export function HitAudioPlayer({ hitId, label }: { hitId: string; label: string }) {
  const t = useHitsT();
  const noteId = useId();
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [hitId]);
  return (
    <Stack gap="1" w="full" maxW="md">
      {failed ? (
        <Text role="alert" textStyle="sm" color="red.fg">
          {t('audio.player_failed')}
        </Text>
      ) : (
        <Box asChild w="full" minH="44px" display="block">
          <audio controls preload="metadata" aria-label={label} aria-describedby={noteId} data-testid="hit-audio">
            <source src={hitAudioUrl(hitId, 'opus')} type="audio/ogg; codecs=opus" />
            {/* the element tries the sources in order; an error on the last one means none could be played */}
            <source src={hitAudioUrl(hitId, 'mp3')} type="audio/mpeg" onError={() => setFailed(true)} />
          </audio>
        </Box>
      )}
      <Text id={noteId} textStyle="sm" color="fg.muted">
        {t('audio.player_note')}
      </Text>
    </Stack>
  );
}
