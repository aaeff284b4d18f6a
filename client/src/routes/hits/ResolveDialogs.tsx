import { Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { HitPayload } from '../../../../shared/protocol/game.ts';
import type { HitIssue } from '../../../../shared/protocol/reports.ts';
import { notify } from '../../a11y/notify.ts';
import { showError } from '../../errors.ts';
import { acceptReport, dismissReport } from '../../net/reports.ts';
import { FormDialog, readYear, ReportField, TextInput, YearInput, useYearError } from './report-fields.tsx';
import { useHitsT } from './use-hits.ts';

/**
 * A curator closes a report (docs/product.md#reports): accept sets the hit's
 * year (the proposed one, editable; empty keeps it) with an optional reason;
 * dismiss keeps the year and needs a reason. Each calls its route and, when it
 * went through, `onDone` (the queue drops the report).
 */

/** What is being resolved: the report and its hit. */
export interface Resolving {
  action: 'accept' | 'dismiss';
  hit: HitPayload;
  report: HitIssue;
}

export function ResolveDialog({
  resolving: asked,
  onClose,
  onDone,
  finalFocusEl,
}: {
  resolving: Resolving | null;
  onClose: () => void;
  onDone: (report: HitIssue) => void;
  finalFocusEl?: RefObject<HTMLElement | null>;
}) {
  const t = useHitsT();
  // the last report stays rendered while the dialog closes, so it can hand the focus back
  const [resolving, setResolving] = useState(asked);
  if (asked && asked !== resolving) setResolving(asked);
  const yearError = useYearError();
  const [year, setYear] = useState('');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const yearRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  // a fresh form for each report
  useEffect(() => {
    setYear(resolving?.report.year == null ? '' : String(resolving.report.year));
    setReason('');
    setTried(false);
  }, [resolving]);

  if (!resolving) return null;
  const { action, hit, report } = resolving;
  const name = t('hit_name', { artist: hit.artist, title: hit.title });
  const typed = year.trim() === '' ? {} : readYear(year);
  const reasonMissing = action === 'dismiss' && reason.trim() === '';

  const submit = async (): Promise<boolean> => {
    setTried(true);
    if (action === 'accept' ? typed.error : reasonMissing) {
      (action === 'accept' ? yearRef : reasonRef).current?.focus();
      return false;
    }
    try {
      if (action === 'accept') {
        // an empty field keeps the hit's year: the server would otherwise set the report's proposed one
        await acceptReport(hit.id, report.id, { year: typed.year ?? hit.year, reason: reason.trim() });
        const done = typed.year === undefined ? t('reports.accept.done', { hit: name }) : t('reports.accept.done_year', { hit: name, year: typed.year });
        notify.notification(done, { toast: 'success' });
      } else {
        await dismissReport(hit.id, report.id, reason.trim());
        notify.notification(t('reports.dismiss.done', { hit: name }), { toast: 'success' });
      }
    } catch (err) {
      showError(err);
      return false;
    }
    onDone(report);
    return true;
  };

  return (
    <FormDialog
      id="resolve-report"
      open={asked !== null}
      title={t(action === 'accept' ? 'reports.accept.title' : 'reports.dismiss.title')}
      submitLabel={t(action === 'accept' ? 'reports.accept.submit' : 'reports.dismiss.submit')}
      onClose={onClose}
      onSubmit={submit}
      initialFocusEl={() => (action === 'accept' ? yearRef.current : reasonRef.current)}
      {...(finalFocusEl ? { finalFocusEl } : {})}
    >
      <Stack gap="4">
        <Text>
          {action === 'accept'
            ? t('reports.accept.intro', { hit: name, year: typed.year ?? hit.year })
            : t('reports.dismiss.intro', { hit: name, year: hit.year })}
        </Text>
        {action === 'accept' && (
          <ReportField label={t('reports.accept.year')} help={t('reports.accept.year_help', { year: hit.year })} error={tried ? yearError(typed.error) : undefined}>
            <YearInput value={year} onChange={setYear} inputRef={yearRef} />
          </ReportField>
        )}
        <ReportField
          label={t(action === 'accept' ? 'reports.accept.reason' : 'reports.dismiss.reason')}
          help={t(action === 'accept' ? 'reports.accept.reason_help' : 'reports.dismiss.reason_help')}
          error={tried && reasonMissing ? t('reports.dismiss.reason_missing') : undefined}
          required={action === 'dismiss'}
        >
          <TextInput name="reason" value={reason} onChange={setReason} max={500} inputRef={reasonRef} />
        </ReportField>
      </Stack>
    </FormDialog>
  );
}
