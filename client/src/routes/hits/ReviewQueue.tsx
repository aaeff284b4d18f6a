import { Alert, Badge, Box, Button, Heading, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { HitIssue, ReviewQueue as Queue } from '../../../../shared/protocol/reports.ts';
import { ErrorPage } from '../../components/ErrorPage.tsx';
import { Page } from '../../components/Page.tsx';
import { errorText } from '../../i18n.ts';
import { onGlobalEvent } from '../../net/events.ts';
import { reviewQueue } from '../../net/reports.ts';
import './recipes.ts';
import { ReportItem, reportLineId } from './ReportItem.tsx';
import { ResolveDialog, type Resolving } from './ResolveDialogs.tsx';
import { useCanWriteHits, useHitsT } from './use-hits.ts';

/**
 * The review queue (docs/product.md#reports, `/hits/reports`, write_hits): the
 * open reports by hit in the server's order (the most reported hit first, then
 * the newest report), each with accept and dismiss. It follows the global
 * stream: a new report reloads it, a report closed elsewhere leaves it.
 */

/** The queue without one report (and without its hit once it has none left). */
export function withoutReport(queue: Queue, issueId: string): Queue {
  let removed = 0;
  const items = queue.items
    .map((item) => {
      const reports = item.reports.filter((r) => r.id !== issueId);
      removed += item.reports.length - reports.length;
      return { ...item, reports };
    })
    .filter((item) => item.reports.length > 0);
  return removed === 0 ? queue : { items, open: Math.max(0, queue.open - removed) };
}

const acceptId = (issueId: string): string => `accept-${issueId}`;

/**
 * The queue, loaded when `enabled` and kept current from the global stream.
 * `reload` fetches it again; `drop` removes a report that was just closed.
 */
export function useReviewQueue(enabled: boolean) {
  const [queue, setQueue] = useState<Queue | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reloads, setReloads] = useState(0);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    reviewQueue(abort.signal).then(
      (answer) => {
        setQueue(answer);
        setError(null);
      },
      (err: unknown) => {
        if (!abort.signal.aborted) setError(err);
      },
    );
    return () => abort.abort();
  }, [enabled, reloads]);
  const drop = useCallback((issueId: string) => setQueue((q) => (q ? withoutReport(q, issueId) : q)), []);
  useEffect(() => {
    if (!enabled) return;
    const offs = [onGlobalEvent('create_hit_issue', reload), onGlobalEvent('delete_hit_issue', ({ issue_id }) => drop(issue_id))];
    return () => offs.forEach((off) => off());
  }, [enabled, reload, drop]);
  return { queue, error, reload, drop };
}

/** The browse page's way to the queue, with the open count (write_hits only). */
export function ReportsLink() {
  const t = useHitsT();
  const { queue } = useReviewQueue(true);
  const open = queue?.open ?? 0;
  return (
    <Button asChild variant="outline" aria-label={queue ? t('reports.queue.link_label', { count: open }) : t('reports.queue.link')}>
      <RouterLink to="/hits/reports">
        {t('reports.queue.link')}
        {open > 0 && (
          <Badge colorPalette="accent" variant="solid" borderRadius="full" aria-hidden="true">
            {open}
          </Badge>
        )}
      </RouterLink>
    </Button>
  );
}

export function ReviewQueuePage() {
  const canWrite = useCanWriteHits();
  if (!canWrite) return <ErrorPage status={403} message={errorText({ code: 'permission_denied' })} />;
  return <ReviewQueueList />;
}

function ReviewQueueList() {
  const t = useHitsT();
  const { queue, error, reload, drop } = useReviewQueue(true);
  const [resolving, setResolving] = useState<Resolving | null>(null);
  // after a report is closed its buttons are gone: the focus goes on to the next report, else to the summary
  const focusAfter = useRef<HTMLElement | null>(null);
  const summary = useRef<HTMLParagraphElement>(null);

  const resolve = (next: Resolving): void => {
    focusAfter.current = null;
    setResolving(next);
  };

  const resolved = (report: HitIssue): void => {
    const order = queue?.items.flatMap((i) => i.reports.map((r) => r.id)) ?? [];
    const at = order.indexOf(report.id);
    const nextId = order[at + 1] ?? order[at - 1];
    focusAfter.current = (nextId && document.getElementById(acceptId(nextId))) || summary.current;
    drop(report.id);
    // the accept may have closed the hit's other reports for the same year
    reload();
  };

  return (
    <Page
      title={t('reports.queue.title')}
      actions={
        <Button asChild variant="outline">
          <RouterLink to="/hits">{t('detail.back')}</RouterLink>
        </Button>
      }
    >
      <Stack gap="5">
        <Text color="fg.muted">{t('reports.queue.intro')}</Text>
        <Text ref={summary} tabIndex={-1} role="status" aria-live="polite" fontWeight="semibold">
          {!queue && !error ? t('reports.queue.loading') : queue && queue.open === 0 ? t('reports.queue.empty') : queue ? t('reports.queue.summary', { count: queue.open }) : ''}
        </Text>
        {error && !queue ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('reports.queue.load_failed')}</Alert.Title>
              <Alert.Description>{errorText(error)}</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={reload}>
              {t('common.retry')}
            </Button>
          </Alert.Root>
        ) : null}
        {queue && queue.items.length > 0 && (
          <Stack as="ul" gap="8" listStyleType="none" m="0" p="0">
            {queue.items.map(({ hit, reports }) => {
              const name = t('hit_name', { artist: hit.artist, title: hit.title });
              const headingId = `queue-hit-${hit.id}`;
              return (
                <Box as="li" key={hit.id} minW="0">
                  <Stack as="section" aria-labelledby={headingId} gap="3">
                    <HStack justify="space-between" align="baseline" wrap="wrap" gap="2">
                      <Heading as="h2" id={headingId} size="lg" overflowWrap="anywhere">
                        {t('detail.title', { artist: hit.artist, title: hit.title })} ({hit.year})
                      </Heading>
                      <HStack gap="3" wrap="wrap">
                        <Text color="fg.muted">{t('reports.queue.count', { count: reports.length })}</Text>
                        <Link asChild color="accent.fg" minH="44px" display="inline-flex" alignItems="center">
                          <RouterLink to={`/hits/${hit.id}`} aria-label={`${t('reports.queue.open_hit')}: ${name}`}>
                            {t('reports.queue.open_hit')}
                          </RouterLink>
                        </Link>
                      </HStack>
                    </HStack>
                    <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={t('reports.queue.reports_of', { hit: name })}>
                      {reports.map((report) => (
                        <li key={report.id}>
                          <ReportItem
                            report={report}
                            actions={
                              <HStack gap="2" wrap="wrap" pt="1">
                                <Button id={acceptId(report.id)} colorPalette="accent" aria-describedby={reportLineId(report)} onClick={() => resolve({ action: 'accept', hit, report })}>
                                  {t('reports.queue.accept')}
                                </Button>
                                <Button variant="outline" aria-describedby={reportLineId(report)} onClick={() => resolve({ action: 'dismiss', hit, report })}>
                                  {t('reports.queue.dismiss')}
                                </Button>
                              </HStack>
                            }
                          />
                        </li>
                      ))}
                    </Stack>
                  </Stack>
                </Box>
              );
            })}
          </Stack>
        )}
      </Stack>
      <ResolveDialog resolving={resolving} onClose={() => setResolving(null)} onDone={resolved} finalFocusEl={focusAfter} />
    </Page>
  );
}
