import { Alert, Box, Button, Flex, Heading, Link, Progress, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import type { AudioStatusView, ProcessHits } from '../../../../shared/protocol/catalogue.ts';
import { announce } from '../../a11y/announcer.ts';
import { notify } from '../../a11y/notify.ts';
import { Page } from '../../components/Page.tsx';
import { showError } from '../../errors.ts';
import { errorText } from '../../i18n.ts';
import { audioStatus, retryAudio } from '../../net/hits.ts';
import { hitStatus, useCatalogue } from '../../stores/catalogue.ts';
import './recipes.ts';
import { useCanWriteHits, useHitsT } from './use-hits.ts';

/** How long "everything is ready" stays on screen before the page moves on to the hits. */
export const REDIRECT_DELAY_MS = 3000;

/**
 * The bars' numbers, of all hits with audio on the way, ready or failed
 * (failures are known to write_hits users only): how many no longer wait for
 * a download, and how many are ready.
 */
export function progressBars(p: ProcessHits, failed = 0): { total: number; downloaded: number; ready: number } {
  const total = p.available + p.downloading + p.processing + failed;
  return { total, downloaded: total - p.downloading, ready: p.available };
}

function Bar({ label, value, max, text }: { label: string; value: number; max: number; text: string }) {
  return (
    <Progress.Root value={max === 0 ? 1 : value} max={max === 0 ? 1 : max} colorPalette="accent" size="lg" maxW="2xl">
      <Stack gap="1.5">
        <Progress.Label>{label}</Progress.Label>
        {/* the bar is named by its label and read as its text ("150 of 200 downloaded"), not as a bare percentage */}
        <Progress.Track aria-label={label} aria-valuetext={text}>
          <Progress.Range />
        </Progress.Track>
        <Progress.ValueText color="fg.muted" fontWeight="normal">
          {text}
        </Progress.ValueText>
      </Stack>
    </Progress.Root>
  );
}

/**
 * The hit-download status page (docs/product.md#screens "a status page shown while hits are
 * prepared", docs/api.md#b9): live progress bars for downloading and processing
 * (the global stream's `process_hits`), for write_hits the failed hits with
 * their reasons and a retry each, and once nothing is left to do (and nothing
 * failed) a short notice and then the hit list.
 */
export function StatusPage() {
  const t = useHitsT();
  const navigate = useNavigate();
  const canWrite = useCanWriteHits();
  const progress = useCatalogue((s) => s.progress);
  const [status, setStatus] = useState<AudioStatusView | null>(null);
  const [statusError, setStatusError] = useState<unknown>(null);
  const [retrying, setRetrying] = useState<string | null>(null);
  const failuresId = useId();

  const refresh = useCallback(
    async (signal?: AbortSignal) => {
      if (!canWrite) return;
      try {
        setStatus(await audioStatus(signal));
        setStatusError(null);
      } catch (err) {
        if (!signal?.aborted) setStatusError(err);
      }
    },
    [canWrite],
  );

  // the failure list changes with the progress: re-read it on every progress event
  useEffect(() => {
    const abort = new AbortController();
    void refresh(abort.signal);
    return () => abort.abort();
  }, [refresh, progress]);

  const failures = status?.failures ?? [];
  const finished = progress !== null && hitStatus(progress) === 'finished';
  // writers see the failures first; the redirect waits until the status has been read
  const redirect = finished && (!canWrite || (status !== null && failures.length === 0));

  useEffect(() => {
    if (!redirect) return;
    announce(t('status.ready_redirect'));
    const timer = setTimeout(() => void navigate('/hits', { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [redirect, navigate, t]);

  const retry = async (id: string): Promise<void> => {
    setRetrying(id);
    try {
      await retryAudio(id);
      notify.notification(t('audio.retried'), { toast: 'info' });
      await refresh();
    } catch (err) {
      showError(err);
    } finally {
      setRetrying(null);
    }
  };

  const bars = progress ? progressBars(progress, status?.states.failed ?? 0) : null;

  return (
    <Page title={t('status.title')}>
      <Text color="fg.muted">{t('status.intro')}</Text>
      {!progress || !bars ? (
        <Text role="status">{t('status.waiting')}</Text>
      ) : (
        <Stack gap="6">
          <Bar
            label={t('status.downloading')}
            value={bars.downloaded}
            max={bars.total}
            text={t('status.downloading_text', { count: progress.downloading })}
          />
          <Bar
            label={t('status.processing')}
            value={bars.ready}
            max={bars.total}
            text={t('status.processing_text', { done: bars.ready, total: bars.total, count: progress.processing })}
          />
          {failures.length > 0 && <Text color="fg.muted">{t('status.failed_note', { count: status?.states.failed ?? failures.length })}</Text>}
        </Stack>
      )}
      {redirect && (
        <Alert.Root status="success">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('status.ready')}</Alert.Title>
            <Alert.Description>
              {t('status.redirecting')}{' '}
              <Link asChild color="accent.fg">
                <RouterLink to="/hits">{t('status.go_now')}</RouterLink>
              </Link>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {canWrite && status && !status.sources.youtube.enabled && (
        <Alert.Root status="info">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('status.youtube_off')}</Alert.Title>
            {status.sources.youtube.reason && <Alert.Description>{status.sources.youtube.reason}</Alert.Description>}
          </Alert.Content>
        </Alert.Root>
      )}
      {canWrite && statusError !== null && (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('status.load_failed')}</Alert.Title>
            <Alert.Description>{errorText(statusError)}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => void refresh()}>
            {t('common.retry')}
          </Button>
        </Alert.Root>
      )}
      {canWrite && failures.length > 0 && (
        <Box as="section" aria-labelledby={failuresId}>
          <Heading as="h2" size="md" id={failuresId} mb="2">
            {t('status.failures', { count: failures.length })}
          </Heading>
          {/* a list rather than a table: the reasons are long, and a phone has no room for four columns */}
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" borderTopWidth="1px">
            {failures.map((f) => {
              const hit = t('hit_name', { artist: f.artist, title: f.title });
              return (
                <Flex as="li" key={f.id} gap="3" py="2" borderBottomWidth="1px" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
                  <Box flex="1" minW="0">
                    <Link asChild color="accent.fg" fontWeight="semibold" minH="44px" display="inline-flex" alignItems="center">
                      <RouterLink to={`/hits/${encodeURIComponent(f.id)}`}>{hit}</RouterLink>
                    </Link>
                    {/* the cause in a word, in the reader's language; the server's full reason below it */}
                    <Text fontWeight="medium">{t(`status.cause.${f.cause}`)}</Text>
                    <Text textStyle="sm" color="fg.muted" overflowWrap="anywhere">
                      {f.reason}
                    </Text>
                    <Text textStyle="sm" color="fg.muted">
                      {t('status.attempts', { count: f.attempts })}
                    </Text>
                  </Box>
                  <Button size="sm" variant="outline" loading={retrying === f.id} aria-label={t('status.retry_label', { hit })} onClick={() => void retry(f.id)}>
                    {t('audio.retry')}
                  </Button>
                </Flex>
              );
            })}
          </Stack>
        </Box>
      )}
    </Page>
  );
}
