import { Alert, Button, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useRef, useState } from 'react';
import type { HitPayload } from '../../../../shared/protocol/game.ts';
import { PROBLEM_KINDS, type ProblemKind } from '../../../../shared/protocol/reports.ts';
import { notify } from '../../a11y/notify.ts';
import { showError } from '../../errors.ts';
import { ApiError } from '../../net/api.ts';
import { reportProblem } from '../../net/reports.ts';
import { FormDialog, readYear, ReportField, TextInput, YearInput, useYearError } from './report-fields.tsx';
import { useHitsT } from './use-hits.ts';

/**
 * "Report a problem" on a hit's page (docs/product.md#reports): any signed-in
 * user picks what is wrong (a wrong year needs the right one), may say more,
 * and the report goes to the review queue. The server limits how often; its
 * 429 is said in the dialog, which stays open with what was typed.
 */
export function ReportProblemButton({ hit, onSent }: { hit: HitPayload; onSent: () => void }) {
  const t = useHitsT();
  const [open, setOpen] = useState(false);
  // each opening starts with an empty form
  const [opened, setOpened] = useState(0);
  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setOpened((n) => n + 1);
          setOpen(true);
        }}
      >
        {t('reports.problem.open')}
      </Button>
      <ReportProblemDialog key={opened} open={open} hit={hit} onClose={() => setOpen(false)} onSent={onSent} />
    </>
  );
}

export function ReportProblemDialog({ open, hit, onClose, onSent }: { open: boolean; hit: HitPayload; onClose: () => void; onSent: () => void }) {
  const t = useHitsT();
  const yearError = useYearError();
  const [kind, setKind] = useState<ProblemKind>('wrong_year');
  const [year, setYear] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const [limited, setLimited] = useState<ApiError | null>(null);
  const yearRef = useRef<HTMLInputElement>(null);
  const name = t('hit_name', { artist: hit.artist, title: hit.title });
  const typed = readYear(year);
  const sameYear = kind === 'wrong_year' && typed.year === hit.year;
  const yearProblem = kind !== 'wrong_year' ? undefined : sameYear ? t('reports.problem.year_same', { year: hit.year }) : yearError(typed.error, t('reports.problem.year_missing'));

  const submit = async (): Promise<boolean> => {
    setTried(true);
    if (yearProblem) {
      yearRef.current?.focus();
      return false;
    }
    try {
      await reportProblem(hit.id, { kind, message: message.trim(), ...(kind === 'wrong_year' && typed.year !== undefined ? { year: typed.year } : {}) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) setLimited(err);
      else showError(err);
      return false;
    }
    notify.notification(t('reports.problem.sent', { hit: name }), { toast: 'success' });
    onSent();
    return true;
  };

  return (
    <FormDialog id="report-problem" open={open} title={t('reports.problem.title')} submitLabel={t('reports.problem.submit')} onClose={onClose} onSubmit={submit}>
      <Stack gap="4">
        <Text>{t('reports.problem.intro', { hit: name })}</Text>
        {limited && (
          <Alert.Root status="warning" role="alert">
            <Alert.Indicator />
            <Alert.Description>
              {limited.retryAfter === undefined ? t('reports.problem.rate_limited') : t('reports.problem.rate_limited_seconds', { count: limited.retryAfter })}
            </Alert.Description>
          </Alert.Root>
        )}
        <RadioGroup.Root name="kind" value={kind} onValueChange={({ value }) => value && setKind(value as ProblemKind)} colorPalette="accent">
          <RadioGroup.Label fontWeight="semibold" mb="1">
            {t('reports.problem.kind')}
          </RadioGroup.Label>
          <Stack gap="0">
            {PROBLEM_KINDS.map((k) => (
              <RadioGroup.Item key={k} value={k} minH="44px">
                <RadioGroup.ItemHiddenInput />
                <RadioGroup.ItemIndicator />
                <RadioGroup.ItemText>{t(`reports.kind.${k}`)}</RadioGroup.ItemText>
              </RadioGroup.Item>
            ))}
          </Stack>
        </RadioGroup.Root>
        {kind === 'wrong_year' && (
          <ReportField label={t('reports.problem.year')} error={tried ? yearProblem : undefined} required>
            <YearInput value={year} onChange={setYear} inputRef={yearRef} />
          </ReportField>
        )}
        <ReportField label={t('reports.problem.message')} help={t('reports.problem.message_help')}>
          <TextInput name="message" value={message} onChange={setMessage} max={2000} />
        </ReportField>
      </Stack>
    </FormDialog>
  );
}
