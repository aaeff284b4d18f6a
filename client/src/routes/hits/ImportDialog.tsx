import { Alert, Box, Button, Field, Heading, HStack, Input, List, Stack, Text } from '@chakra-ui/react';
import { useCallback, useId, useRef, useState, type ReactNode } from 'react';
import { ADDRESS_IMPORT_ERROR_CODES, type ImportReportPayload } from '../../../../shared/protocol/catalogue.ts';
import { notify } from '../../a11y/notify.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { errorText, errorValues } from '../../i18n.ts';
import { importHits, importHitsFromAddress } from '../../net/hits.ts';
import { useCatalogue } from '../../stores/catalogue.ts';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

type Phase = 'idle' | 'checking' | 'checked' | 'applying' | 'applied';

/** Would applying the report change anything? */
export function reportChanges(r: ImportReportPayload): boolean {
  const { hits, packs } = r.summary;
  return hits.added + hits.changed + packs.added + packs.changed > 0;
}

/**
 * The interpolation values of the hit counts (`import.checked`, `.ready`, `.applied`):
 * the counts, the added hits as `count`, which picks the plural form ("1 hit to add"),
 * and as `rejected` every rejected row, pack rows too.
 */
export function hitCounts(r: ImportReportPayload): ImportReportPayload['summary']['hits'] & { count: number } {
  return { ...r.summary.hits, rejected: r.summary.hits.rejected + r.summary.packs.rejected, count: r.summary.hits.added };
}

/** A field value of a diff as text: lists joined (pack ids by name when known), empty as a dash. */
function valueText(value: unknown, packName: (id: string) => string | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map((v) => (typeof v === 'string' ? (packName(v) ?? v) : String(v))).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The label of a diffed field, as the hit form and pack dialog name it. */
const FIELD_LABELS: Record<string, string> = {
  title: 'fields.title',
  artist: 'fields.artist',
  year: 'fields.year',
  belongs_to: 'fields.belongs_to',
  packs: 'fields.packs',
  yt_id: 'fields.yt_id',
  playback_offset: 'fields.offset',
  name: 'packs.name',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box as="section">
      <Heading as="h3" size="sm" mb="1.5">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/** The dry-run diff (docs/api.md#b8): counts, then added, changed (field by field) and rejected rows with their reasons. */
export function ImportReportView({ report }: { report: ImportReportPayload }) {
  const t = useHitsT();
  const packs = useCatalogue((s) => s.packs);
  const names = new Map([...packs.map((p) => [p.id, p.name] as const), ...report.packs.added.map((p) => [p.id, p.name] as const)]);
  const packName = (id: string) => names.get(id);
  const { summary, hits } = report;
  const done = report.applied;
  const field = (name: string): string => (FIELD_LABELS[name] ? t(FIELD_LABELS[name]) : name);

  return (
    <Stack gap="4">
      {report.errors.length > 0 && (
        <Section title={t('import.file_errors')}>
          <List.Root ps="5">
            {report.errors.map((e, i) => (
              <List.Item key={i}>
                {e.line !== undefined ? t('import.at_line', { line: e.line }) + ' ' : ''}
                {e.message}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      )}
      <Section title={done ? t('import.summary_done') : t('import.summary')}>
        <List.Root ps="5">
          <List.Item>{t('import.summary_hits', summary.hits)}</List.Item>
          <List.Item>{t('import.summary_packs', summary.packs)}</List.Item>
        </List.Root>
      </Section>

      {hits.added.length > 0 && (
        <Section title={t(done ? 'import.added_hits_done' : 'import.added_hits', { count: summary.hits.added })}>
          <List.Root ps="5">
            {hits.added.map((h) => (
              <List.Item key={`${h.index}-${h.id}`}>{t('import.hit', { artist: h.artist, title: h.title, year: h.year })}</List.Item>
            ))}
          </List.Root>
        </Section>
      )}
      {hits.changed.length > 0 && (
        <Section title={t(done ? 'import.changed_hits_done' : 'import.changed_hits', { count: summary.hits.changed })}>
          <List.Root ps="5" gap="2">
            {hits.changed.map((h) => (
              <List.Item key={`${h.index}-${h.id}`}>
                <Text fontWeight="medium">{t('import.hit', { artist: h.artist, title: h.title, year: h.year })}</Text>
                {h.matched_by === 'yt_id' && (
                  <Text color="orange.fg">{h.file_id ? t('import.matched_by_yt_id', { id: h.file_id }) : t('import.matched_by_yt_id_no_id')}</Text>
                )}
                <List.Root ps="5">
                  {h.changes.map((c) => (
                    <List.Item key={c.field}>
                      {t('import.change', { field: field(c.field), before: valueText(c.before, packName), after: valueText(c.after, packName) })}
                    </List.Item>
                  ))}
                </List.Root>
              </List.Item>
            ))}
          </List.Root>
        </Section>
      )}
      {(report.packs.added.length > 0 || report.packs.changed.length > 0) && (
        <Section title={t('import.pack_changes')}>
          <List.Root ps="5">
            {report.packs.added.map((p) => (
              <List.Item key={`a-${p.index}`}>{t('import.pack_added', { name: p.name })}</List.Item>
            ))}
            {report.packs.changed.map((p) => (
              <List.Item key={`c-${p.index}`}>
                {t('import.pack_changed', { name: p.name })}{' '}
                {p.matched_by === 'name' && `${t('import.matched_by_name', { id: p.file_id ?? p.id })} `}
                {p.changes.map((c) => t('import.change', { field: field(c.field), before: valueText(c.before, packName), after: valueText(c.after, packName) })).join('; ')}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      )}
      {hits.rejected.length + report.packs.rejected.length > 0 && (
        <Section title={t('import.rejected_rows', { count: summary.hits.rejected + summary.packs.rejected })}>
          <List.Root ps="5" gap="1">
            {[...hits.rejected, ...report.packs.rejected].map((r, i) => (
              <List.Item key={i}>
                <Text as="span" fontWeight="medium">
                  {t('import.at_line', { line: r.line })} {r.label ?? r.id ?? ''}
                </Text>
                {': '}
                {r.reasons.join('; ')}
              </List.Item>
            ))}
          </List.Root>
        </Section>
      )}
      {report.truncated && <Text color="fg.muted">{t('import.truncated')}</Text>}
    </Stack>
  );
}

/** Error codes of the import by address whose text the catalogue's own namespace gives (with the server's detail). */
const ADDRESS_ERRORS: ReadonlySet<string> = new Set(ADDRESS_IMPORT_ERROR_CODES);

/** What the report was made from: the file chosen, or the address checked (with the bytes' hash its apply insists on). */
type Source = { kind: 'file'; file: File } | { kind: 'address'; url: string; sha256: string };

/**
 * Import (docs/api.md#b8, write_hits): choose a hits.yml, or give its address (issue
 * 27: another server's export), see the server's dry run (nothing is written
 * yet), then apply it in one transaction, or cancel.
 */
export function ImportButton({ onApplied }: { onApplied: () => void }) {
  const t = useHitsT();
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState<Source | null>(null);
  const [address, setAddress] = useState('');
  const [addressMissing, setAddressMissing] = useState(false);
  const [report, setReport] = useState<ImportReportPayload | null>(null);
  const [from, setFrom] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('idle');
  const [checkingAddress, setCheckingAddress] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const addressId = useId();
  // the fields stay usable while a file is checked (disabling them would drop the focus):
  // only the answer for the file or address chosen last counts
  const checks = useRef(0);

  const reset = (): void => {
    // a check still running for a file of before is no longer awaited
    checks.current++;
    setSource(null);
    setReport(null);
    setFrom(null);
    setPhase('idle');
    setCheckingAddress(false);
    setError(null);
  };

  // a picker dismissed after the file field's click emptied it (below): the field and the report agree again
  const fileField = useRef<HTMLInputElement | null>(null);
  const fileInput = useCallback((input: HTMLInputElement | null) => {
    fileField.current = input;
    if (!input) return;
    input.addEventListener('cancel', () => {
      if (!input.files?.length) reset();
    });
  }, []);

  /** Runs a dry run; `run` gives its report and the source to apply later. */
  const dryRun = async (run: () => Promise<{ report: ImportReportPayload; source: Source; from: string | null }>, byAddress: boolean): Promise<void> => {
    const mine = ++checks.current;
    setReport(null);
    setFrom(null);
    setError(null);
    setSource(null);
    setPhase('checking');
    setCheckingAddress(byAddress);
    try {
      const r = await run();
      if (mine !== checks.current) return;
      setReport(r.report);
      setSource(r.source);
      setFrom(r.from);
      setPhase('checked');
      // (that the file cannot be applied, the dialog's status line says as it appears)
      notify.notification(t('import.checked', hitCounts(r.report)), { toast: false });
    } catch (err) {
      if (mine !== checks.current) return;
      setError(err);
      setPhase('idle');
    }
  };

  const checkFile = (chosen: File | null): void => {
    if (!chosen) {
      checks.current++;
      setSource(null);
      setReport(null);
      setFrom(null);
      setError(null);
      setPhase('idle');
      return;
    }
    // one source at a time: the address field empties for a file, the file field for an address
    setAddress('');
    setAddressMissing(false);
    void dryRun(async () => ({ report: await importHits(chosen, false), source: { kind: 'file', file: chosen }, from: null }), false);
  };

  const checkAddress = (): void => {
    const url = address.trim();
    setAddressMissing(url === '');
    if (url === '') return;
    if (fileField.current) fileField.current.value = '';
    void dryRun(async () => {
      const r = await importHitsFromAddress(url, false);
      return { report: r, source: { kind: 'address', url, sha256: r.source.sha256 }, from: r.source.url };
    }, true);
  };

  const apply = async (): Promise<void> => {
    if (!source) return;
    setPhase('applying');
    try {
      const r = source.kind === 'file' ? await importHits(source.file, true) : await importHitsFromAddress(source.url, true, source.sha256);
      setReport(r);
      if (r.applied) {
        setPhase('applied');
        notify.notification(t('import.applied', hitCounts(r)), { toast: 'success' });
        void useCatalogue.getState().loadPacks();
        onApplied();
      } else setPhase('checked');
    } catch (err) {
      setError(err);
      setPhase('checked');
    }
  };

  const canApply = phase === 'checked' && source !== null && report !== null && report.ok && !report.applied && reportChanges(report);
  const close = (): void => {
    setOpen(false);
    setAddress('');
    setAddressMissing(false);
    reset();
  };
  const errorMessage = (err: unknown): string => {
    const code = (err as { code?: unknown } | null)?.code;
    if (checkingAddress && typeof code === 'string' && ADDRESS_ERRORS.has(code)) return t(`import.address_errors.${code}`, errorValues(String((err as Error).message ?? '')));
    return errorText(err);
  };

  return (
    <>
      <Button ref={opener} variant="outline" onClick={() => setOpen(true)}>
        {t('import.button')}
      </Button>
      <AppDialog
        open={open}
        onClose={close}
        title={t('import.title')}
        size="lg"
        finalFocusEl={opener}
        footer={
          <HStack gap="2" wrap="wrap">
            {phase !== 'applied' && (
              <Button colorPalette="accent" disabled={!canApply} loading={phase === 'applying'} onClick={() => void apply()}>
                {t('import.apply')}
              </Button>
            )}
            <Button variant="outline" onClick={close}>
              {phase === 'applied' ? t('common.close') : t('common.cancel')}
            </Button>
          </HStack>
        }
      >
        <Stack gap="4">
          <Text color="fg.muted">{t('import.help')}</Text>
          <Field.Root disabled={phase === 'applying'}>
            <Field.Label>{t('import.file')}</Field.Label>
            <Input
              ref={fileInput}
              type="file"
              accept=".yml,.yaml,application/x-yaml,application/yaml,text/yaml"
              p="1.5"
              // a browser reports no change for the file chosen before: a file corrected and
              // picked again under its name must be read again, so each choice starts empty
              onClick={(e) => {
                e.currentTarget.value = '';
              }}
              onChange={(e) => checkFile(e.target.files?.[0] ?? null)}
            />
          </Field.Root>
          <Box as="section" aria-labelledby={addressId}>
            <Heading as="h3" size="sm" mb="1.5" id={addressId}>
              {t('import.from_address')}
            </Heading>
            <form
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                checkAddress();
              }}
            >
              <Field.Root disabled={phase === 'applying'} invalid={addressMissing}>
                <Field.Label>{t('import.address')}</Field.Label>
                <Stack direction={{ base: 'column', sm: 'row' }} gap="2" w="full" align={{ base: 'stretch', sm: 'flex-start' }}>
                  <Input
                    type="url"
                    inputMode="url"
                    autoComplete="url"
                    spellCheck={false}
                    placeholder="https://"
                    value={address}
                    onChange={(e) => {
                      setAddress(e.target.value);
                      if (e.target.value.trim() !== '') setAddressMissing(false);
                    }}
                    flex="1"
                    minH="44px"
                  />
                  <Button type="submit" variant="outline" minH="44px" loading={phase === 'checking' && checkingAddress} loadingText={t('import.check_address')} disabled={phase === 'applying'}>
                    {t('import.check_address')}
                  </Button>
                </Stack>
                {addressMissing ? <Field.ErrorText>{t('import.address_missing')}</Field.ErrorText> : <Field.HelperText>{t('import.address_help')}</Field.HelperText>}
              </Field.Root>
            </form>
          </Box>
          <Box role="status" aria-live="polite">
            {phase === 'checking' && <Text>{checkingAddress ? t('import.checking_address') : t('import.checking')}</Text>}
            {phase === 'applied' && (
              <Alert.Root status="success">
                <Alert.Indicator />
                <Alert.Title>{report && t('import.applied', hitCounts(report))}</Alert.Title>
              </Alert.Root>
            )}
            {phase === 'checked' && report && (
              <Alert.Root status={report.ok ? (reportChanges(report) ? 'info' : 'neutral') : 'warning'}>
                <Alert.Indicator />
                <Alert.Title>
                  {!report.ok ? t('import.not_ok') : reportChanges(report) ? t('import.ready', hitCounts(report)) : t('import.nothing')}
                </Alert.Title>
              </Alert.Root>
            )}
          </Box>
          {error !== null && (
            <Alert.Root status="error" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{checkingAddress ? t('import.address_failed') : t('import.failed')}</Alert.Title>
                <Alert.Description wordBreak="break-word">{errorMessage(error)}</Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {from !== null && report && (
            <Text textStyle="sm" color="fg.muted" wordBreak="break-all">
              {t('import.from', { url: from })}
            </Text>
          )}
          {report && <ImportReportView report={report} />}
        </Stack>
      </AppDialog>
    </>
  );
}
