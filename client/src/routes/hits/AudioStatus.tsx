import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { AudioState, FailureCause } from '../../../../shared/protocol/catalogue.ts';
import { notify } from '../../a11y/notify.ts';
import { showError } from '../../errors.ts';
import { retryAudio } from '../../net/hits.ts';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/** States in which the pipeline is still working on the hit (its state will change by itself). */
export const AUDIO_BUSY: readonly AudioState[] = ['queued', 'fetching', 'processing'];

const PALETTE: Record<AudioState, string> = {
  none: 'gray',
  queued: 'blue',
  fetching: 'blue',
  processing: 'blue',
  ready: 'green',
  failed: 'red',
};

/**
 * A hit's audio (docs/api.md#b9): none, queued, downloading, processing, ready or
 * failed, with the reason of a failure and, for write_hits, a retry.
 */
export function AudioStatus({
  hitId,
  state,
  reason,
  cause,
  canRetry,
  onRetried,
}: {
  hitId: string;
  state: AudioState;
  reason?: string | undefined;
  cause?: FailureCause | undefined;
  canRetry: boolean;
  onRetried: () => void;
}) {
  const t = useHitsT();
  const [busy, setBusy] = useState(false);
  const retry = async (): Promise<void> => {
    setBusy(true);
    try {
      await retryAudio(hitId);
      notify.notification(t('audio.retried'), { toast: 'info' });
      onRetried();
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="1.5" align="flex-start">
      <HStack gap="2" wrap="wrap">
        <Badge colorPalette={PALETTE[state]} variant="subtle" size="md">
          {t(`audio.state.${state}`)}
        </Badge>
        {state === 'failed' && canRetry && (
          <Button size="xs" variant="outline" loading={busy} onClick={() => void retry()}>
            {t('audio.retry')}
          </Button>
        )}
      </HStack>
      <Text textStyle="sm" color="fg.muted">
        {t(`audio.explain.${state}`)}
      </Text>
      {state === 'failed' && cause && (
        <Text textStyle="sm" fontWeight="medium">
          {t(`status.cause.${cause}`)}
        </Text>
      )}
      {state === 'failed' && reason && (
        <Text textStyle="sm" overflowWrap="anywhere">
          {t('audio.reason', { reason })}
        </Text>
      )}
    </Stack>
  );
}
