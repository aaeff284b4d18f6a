import { Box, Heading, Link, List, Spinner, Stack, Text } from '@chakra-ui/react';
import { listSlotRecipe } from '@chakra-ui/react/theme';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Evidence, HitIssue, SourceAnswer, YearChange } from '../../../../shared/protocol/reports.ts';
import { i18next } from '../../i18n.ts';
import { api } from '../../net/api.ts';
import { registerRecipes } from '../../theme.ts';

registerRecipes({ slotRecipes: { list: listSlotRecipe } });

/** How often, and how far apart, the evidence is asked for again while a source is still looking. */
export const EVIDENCE_RETRIES = 4;
export const EVIDENCE_RETRY_MS = 3000;

export type EvidenceState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; evidence: Evidence };

/**
 * The evidence about the revealed card's year (`GET /api/games/{id}/evidence`),
 * fetched while `active` and asked for again a few times while a source is
 * still looking (docs/disputes.md#evidence). `key` names the card: a new
 * card starts afresh.
 */
export function useEvidence(gameId: string, key: string, active: boolean): EvidenceState {
  const [state, setState] = useState<EvidenceState>({ status: 'loading' });
  useEffect(() => {
    if (!active || !gameId) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setState({ status: 'loading' });
    const load = async (tries: number): Promise<void> => {
      try {
        const evidence = await api('get', '/api/games/{id}/evidence', { params: { id: gameId }, schema: (s) => s.EvidenceSchema });
        if (stopped) return;
        setState({ status: 'ready', evidence });
        if (tries > 0 && evidence.missing.some((m) => m.state === 'pending')) timer = setTimeout(() => void load(tries - 1), EVIDENCE_RETRY_MS);
      } catch {
        // no evidence is no reason to stop the table: the catalogue's card and the vote still work
        if (!stopped) setState((s) => (s.status === 'ready' ? s : { status: 'failed' }));
      }
    };
    void load(EVIDENCE_RETRIES);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [gameId, key, active]);
  return state;
}

const dateText = (iso: string, withTime = false): string =>
  new Intl.DateTimeFormat(i18next.language, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' }).format(new Date(iso));

/**
 * What is known about a card's year, in plain lists: the catalogue's year and
 * its changes, earlier reports with their outcomes, and each outside source's
 * answer with its date, link and when it was looked up; sources still looking
 * or unreachable are said so. `cardYear`: the year the card was dealt with.
 */
type EvidenceProps = { state: EvidenceState; cardYear: number; big?: boolean; level?: 'h3' | 'h4' };

/** The evidence with the rule of thumb beside it, wherever the table reads it (the dispute dialog, the vote). */
export function DisputeEvidence(props: EvidenceProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="3">
      <Box borderLeftWidth="4px" borderColor="accent.solid" bg="accent.subtle" px="3" py="2" borderRadius="md" fontSize={props.big ? 'lg' : undefined}>
        <Text fontWeight="semibold">{t('table:dispute.rules_title')}</Text>
        <Text>{t('table:dispute.rules')}</Text>
      </Box>
      <EvidenceBody {...props} />
    </Stack>
  );
}

function EvidenceBody({ state, cardYear, big = false, level = 'h3' }: EvidenceProps) {
  const { t } = useTranslation();
  if (state.status === 'loading') {
    return (
      <Text color="fg.muted" display="flex" gap="2" alignItems="center" role="status">
        <Spinner size="sm" aria-hidden="true" />
        {t('table:dispute.loading')}
      </Text>
    );
  }
  if (state.status === 'failed') return <Text color="fg.muted">{t('table:dispute.load_failed')}</Text>;
  const e = state.evidence;
  const size = big ? 'lg' : 'sm';
  return (
    <Stack gap="3" fontSize={size} data-testid="dispute-evidence">
      <Section title={t('table:dispute.catalogue_title')} big={big} level={level}>
        <Text>{e.year !== null && e.year !== cardYear ? t('table:dispute.catalogue_now', { year: e.year, card: cardYear }) : t('table:dispute.catalogue', { year: e.year ?? cardYear })}</Text>
        {e.changes.length > 0 ? (
          <List.Root ps="5" gap="1">
            {e.changes.map((c, i) => (
              <List.Item key={i}>{changeText(c)}</List.Item>
            ))}
          </List.Root>
        ) : (
          <Text color="fg.muted">{t('table:dispute.no_history')}</Text>
        )}
      </Section>
      <Section title={t('table:dispute.sources')} big={big} level={level}>
        {e.sources.length === 0 && e.missing.length === 0 && <Text color="fg.muted">{t('table:dispute.no_sources')}</Text>}
        <List.Root ps="5" gap="1">
          {e.sources.map((s) => (
            <List.Item key={s.source} data-source={s.source}>
              <SourceLine answer={s} />
            </List.Item>
          ))}
          {e.missing.map((m) => (
            <List.Item key={m.source} color="fg.muted" data-source={m.source}>
              {t(m.state === 'pending' ? 'table:dispute.pending' : 'table:dispute.unavailable', { label: m.label })}
            </List.Item>
          ))}
        </List.Root>
      </Section>
      <Section title={t('table:dispute.reports')} big={big} level={level}>
        {e.reports.length === 0 ? (
          <Text color="fg.muted">{t('table:dispute.no_reports')}</Text>
        ) : (
          <List.Root ps="5" gap="1">
            {e.reports.map((r) => (
              <List.Item key={r.id}>{reportText(r)}</List.Item>
            ))}
          </List.Root>
        )}
      </Section>
    </Stack>
  );
}

function Section({ title, children, big, level }: { title: string; children: ReactNode; big: boolean; level: 'h3' | 'h4' }) {
  return (
    <Box>
      <Heading as={level} fontSize={big ? 'xl' : 'sm'} fontWeight="semibold" mb="1">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

function SourceLine({ answer: s }: { answer: SourceAnswer }) {
  const { t } = useTranslation();
  const found = t('table:dispute.source_found', { when: dateText(s.found_at, true) });
  return (
    <>
      <Text as="span" fontWeight={s.year !== null ? 'semibold' : undefined}>
        {s.year !== null ? t('table:dispute.source_year', { label: s.label, year: s.date ?? s.year }) : t('table:dispute.source_none', { label: s.label })}
      </Text>
      {s.detail && <Text as="span"> — {s.detail}</Text>}
      <Text as="span" color="fg.muted">
        {' '}
        ({found})
      </Text>
      {s.url && (
        <>
          {' '}
          <Link href={s.url} target="_blank" rel="noopener noreferrer" colorPalette="accent" textDecoration="underline">
            {t('table:dispute.source_link', { label: s.label })}
          </Link>
        </>
      )}
    </>
  );
}

const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});

function changeText(c: YearChange): string {
  const by = c.by ? t('table:dispute.change_by', { name: c.by }) : '';
  if (c.from === null) return t('table:dispute.change_made', { to: c.to, date: dateText(c.at), by });
  return t('table:dispute.change', { from: c.from, to: c.to, date: dateText(c.at), by, reason: c.reason });
}

function reportText(r: HitIssue): string {
  const head = r.year !== null ? t('table:dispute.report', { date: dateText(r.created_at), year: r.year }) : t('table:dispute.report_no_year', { date: dateText(r.created_at), message: r.message });
  const parts = [head];
  if (r.outcome && r.votes) parts.push(t(`table:dispute.report_outcome.${r.outcome}`, { take: r.votes.take, keep: r.votes.keep }));
  const status = t(`table:dispute.report_status.${r.status}`);
  // a curator's reason says why the year stayed or changed
  parts.push(r.resolution?.reason ? t('table:dispute.report_resolved', { status, reason: r.resolution.reason }) : status);
  return parts.join('; ');
}
