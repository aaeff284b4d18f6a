import { Badge, Box, HStack, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { HitIssue, IssueStatus, SourceAnswer } from '../../../../shared/protocol/reports.ts';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/**
 * One report as the review queue and a hit's history show it
 * (docs/product.md#reports): its kind, the year it proposes, who filed it and
 * when, the message, a dispute's outcome at the table with its votes, the
 * evidence known when it was filed, and once closed who closed it and why.
 */

const STATUS_PALETTE: Record<IssueStatus, string> = { open: 'orange', accepted: 'green', dismissed: 'gray' };

/** "29 Nov 2026, 03:40" in the page's language. */
export function useWhen(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (iso) => format.format(new Date(iso));
}

/** The id of a report's first line, for buttons that act on it (their description). */
export const reportLineId = (report: HitIssue): string => `report-${report.id}`;

function EvidenceLine({ answer }: { answer: SourceAnswer }) {
  const t = useHitsT();
  const when = useWhen();
  return (
    <Box as="li">
      <Text>
        <Text as="span" fontWeight="semibold">
          {answer.year === null ? t('reports.report.source_none', { source: answer.label }) : t('reports.report.source_year', { source: answer.label, year: answer.year })}
        </Text>
        {answer.date && answer.date !== String(answer.year) && ` (${t('reports.report.source_date', { date: answer.date })})`}
        {answer.detail && ` – ${answer.detail}`}
      </Text>
      <HStack gap="3" wrap="wrap" color="fg.muted" fontSize="sm">
        <Text>{t('reports.report.found', { when: when(answer.found_at) })}</Text>
        {answer.url && (
          <Link href={answer.url} target="_blank" rel="noreferrer noopener" color="accent.fg" minH="44px" display="inline-flex" alignItems="center">
            {t('reports.report.source_link', { source: answer.label })}
          </Link>
        )}
      </HStack>
    </Box>
  );
}

/**
 * A report. A kept dispute names no kept year: the hit's year may have changed
 * since (the server's message says which year was disputed). `showStatus`
 * adds the status badge and the resolution (the history lists closed ones too);
 * `actions` go below it (the queue's accept and dismiss).
 */
export function ReportItem({ report, showStatus = false, actions }: { report: HitIssue; showStatus?: boolean; actions?: ReactNode }) {
  const t = useHitsT();
  const when = useWhen();
  const votes = report.votes;
  const resolution = report.resolution;
  return (
    <Stack as="article" gap="2" borderWidth="1px" borderRadius="md" p={{ base: '3', sm: '4' }} bg="bg.panel" minW="0">
      <HStack id={reportLineId(report)} gap="2" wrap="wrap">
        <Text as="span" fontWeight="bold">
          {t(`reports.kind.${report.kind}`)}
        </Text>
        {report.year !== null && <Text as="span">{t('reports.report.proposed', { year: report.year })}</Text>}
        {showStatus && (
          <Badge colorPalette={STATUS_PALETTE[report.status]} variant="subtle">
            {t(`reports.status.${report.status}`)}
          </Badge>
        )}
      </HStack>
      <Text color="fg.muted" fontSize="sm">
        {report.reporter === null
          ? t('reports.report.by_server', { when: when(report.created_at) })
          : t('reports.report.by', { name: report.reporter, when: when(report.created_at) })}
      </Text>
      {report.message.trim() !== '' && (
        <Text whiteSpace="pre-wrap" overflowWrap="anywhere">
          {report.message}
        </Text>
      )}
      {report.kind === 'dispute' && report.outcome && votes && report.year !== null && (
        <Text>
          {report.outcome === 'kept'
            ? t('reports.report.outcome_kept', { year: report.year, take: votes.take, voters: votes.voters })
            : t('reports.report.outcome_changed', { year: report.year, take: votes.take, voters: votes.voters })}
        </Text>
      )}
      {report.evidence.length > 0 && (
        <Box>
          <Text fontWeight="semibold" id={`${reportLineId(report)}-evidence`}>
            {t('reports.report.evidence')}
          </Text>
          <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" aria-labelledby={`${reportLineId(report)}-evidence`}>
            {report.evidence.map((answer) => (
              <EvidenceLine key={`${answer.source}-${answer.found_at}`} answer={answer} />
            ))}
          </Stack>
        </Box>
      )}
      {showStatus && resolution && report.status !== 'open' && (
        <Box>
          <Text fontWeight="semibold">
            {t(report.status === 'accepted' ? 'reports.report.accepted_by' : 'reports.report.dismissed_by', {
              name: resolution.by ?? t('reports.report.curator'),
              when: when(resolution.at),
            })}
          </Text>
          {resolution.reason.trim() !== '' && <Text overflowWrap="anywhere">{t('reports.report.reason', { reason: resolution.reason })}</Text>}
        </Box>
      )}
      {actions}
    </Stack>
  );
}
