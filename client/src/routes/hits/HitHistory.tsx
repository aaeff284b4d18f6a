import { Alert, Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import type { HitHistory as History, YearChange } from '../../../../shared/protocol/reports.ts';
import { errorText } from '../../i18n.ts';
import { onGlobalEvent } from '../../net/events.ts';
import { hitHistory } from '../../net/reports.ts';
import { useSession } from '../../stores/session.ts';
import './recipes.ts';
import { ReportItem, useWhen } from './ReportItem.tsx';
import { useCanWriteHits, useHitsT } from './use-hits.ts';

/**
 * A hit's history on its page (docs/product.md#reports): the year changes
 * (from → to, by whom, when, why), and for users who may read reports
 * (read_issues or write_hits) the hit's reports with their status, and for
 * curators how many are open, with the way to the review queue. `version`
 * changes when the page knows the history did (a report sent from it).
 */

/** May this user read the reports (docs/api.md#permissions)? */
export const useCanReadReports = (): boolean => useSession((s) => !!s.user && (s.user.permissions.read_issues || s.user.permissions.write_hits));

function ChangeLine({ change }: { change: YearChange }) {
  const t = useHitsT();
  const when = useWhen();
  const at = when(change.at);
  return (
    <Box as="li" borderLeftWidth="3px" borderColor="accent.solid" ps="3" py="1">
      <Text fontWeight="semibold">
        {change.from === null ? (
          t('reports.history.created', { to: change.to })
        ) : (
          <>
            <span aria-hidden="true">{t('reports.history.changed', { from: change.from, to: change.to })}</span>
            <Text as="span" srOnly>
              {t('reports.history.changed_label', { from: change.from, to: change.to })}
            </Text>
          </>
        )}
      </Text>
      <Text color="fg.muted" fontSize="sm">
        {change.by === null ? t('reports.history.by_server', { when: at }) : t('reports.history.by', { name: change.by, when: at })}
      </Text>
      {change.reason.trim() !== '' && <Text overflowWrap="anywhere">{t('reports.history.why', { reason: change.reason })}</Text>}
    </Box>
  );
}

export function HitHistory({ hitId, version }: { hitId: string; version: number }) {
  const t = useHitsT();
  const canRead = useCanReadReports();
  const canWrite = useCanWriteHits();
  const [history, setHistory] = useState<History | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    hitHistory(hitId, abort.signal).then(
      (answer) => {
        setHistory(answer);
        setError(null);
      },
      (err: unknown) => {
        if (!abort.signal.aborted) setError(err);
      },
    );
    return () => abort.abort();
  }, [hitId, version, reloads, canRead]);

  // reports of this hit filed or closed elsewhere (read_issues subscribers get these events)
  useEffect(() => {
    if (!canRead) return;
    const again = () => setReloads((n) => n + 1);
    const offs = [
      onGlobalEvent('create_hit_issue', (issue) => issue.hit_id === hitId && again()),
      onGlobalEvent('delete_hit_issue', (gone) => gone.hit_id === hitId && again()),
    ];
    return () => offs.forEach((off) => off());
  }, [canRead, hitId]);

  const open = history?.reports.filter((r) => r.status === 'open').length ?? 0;

  return (
    <Stack as="section" aria-labelledby="hit-history" gap="4" mt="10">
      <Heading as="h2" id="hit-history" size="xl">
        {t('reports.history.title')}
      </Heading>
      {error && !history ? (
        <Alert.Root status="error" role="alert">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('reports.history.load_failed')}</Alert.Title>
            <Alert.Description>{errorText(error)}</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => setReloads((n) => n + 1)}>
            {t('common.retry')}
          </Button>
        </Alert.Root>
      ) : null}
      {history && (
        <>
          <Heading as="h3" size="md">
            {t('reports.history.years')}
          </Heading>
          {history.changes.length === 0 ? (
            <Text color="fg.muted">{t('reports.history.no_changes')}</Text>
          ) : (
            <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={t('reports.history.years')}>
              {history.changes.map((change) => (
                <ChangeLine key={`${change.at}-${change.to}`} change={change} />
              ))}
            </Stack>
          )}
          {canRead && (
            <>
              <Heading as="h3" size="md">
                {t('reports.history.reports')}
              </Heading>
              {canWrite && open > 0 && (
                <HStack gap="3" wrap="wrap">
                  <Text fontWeight="semibold">{t('reports.history.open', { count: open })}</Text>
                  <Button asChild size="sm" colorPalette="accent">
                    <RouterLink to="/hits/reports">{t('reports.history.review')}</RouterLink>
                  </Button>
                </HStack>
              )}
              {history.reports.length === 0 ? (
                <Text color="fg.muted">{t('reports.history.no_reports')}</Text>
              ) : (
                <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label={t('reports.history.reports')}>
                  {history.reports.map((report) => (
                    <li key={report.id}>
                      <ReportItem report={report} showStatus />
                    </li>
                  ))}
                </Stack>
              )}
            </>
          )}
        </>
      )}
    </Stack>
  );
}
