import { Button, Field, Textarea, useFieldContext } from '@chakra-ui/react';
import { useState, type FormEvent, type ReactNode, type Ref, type RefObject } from 'react';
import { latestHitYear } from '../../../../shared/rules/constants.ts';
import { AppDialog } from '../../components/AppDialog.tsx';
import { FieldInput } from '../../components/FieldInput.tsx';
import './recipes.ts';
import { useHitsT } from './use-hits.ts';

/**
 * The pieces the report dialogs share (accept, dismiss, report a problem): a
 * year field, a text field, and a dialog that is one form with Cancel and a
 * submit button that shows it is busy.
 */

/** A typed year: empty, a year the catalogue takes (1 … this year), or not one. */
export function readYear(text: string): { year?: number; error?: 'empty' | 'invalid' } {
  const trimmed = text.trim();
  if (trimmed === '') return { error: 'empty' };
  const year = /^\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  return year >= 1 && year <= latestHitYear() ? { year } : { error: 'invalid' };
}

/** A labelled field; its error (red.fg: small text needs 4.5:1 in both schemes) replaces its help. */
export function ReportField({ label, help, error, required = false, children }: { label: string; help?: string; error?: string | undefined; required?: boolean; children: ReactNode }) {
  return (
    <Field.Root invalid={!!error} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {children}
      {help && !error && <Field.HelperText>{help}</Field.HelperText>}
      {error && <Field.ErrorText color="red.fg">{error}</Field.ErrorText>}
    </Field.Root>
  );
}

export function YearInput({ value, onChange, inputRef }: { value: string; onChange: (v: string) => void; inputRef?: Ref<HTMLInputElement> }) {
  return (
    <FieldInput
      ref={inputRef}
      name="year"
      type="number"
      inputMode="numeric"
      min={1}
      max={latestHitYear()}
      step={1}
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/** A multi-line text (a reason, a message); described by its error while invalid, like {@link FieldInput}. */
export function TextInput({ name, value, onChange, max, inputRef }: { name: string; value: string; onChange: (v: string) => void; max: number; inputRef?: Ref<HTMLTextAreaElement> }) {
  const field = useFieldContext();
  const described = field?.invalid ? { 'aria-describedby': [field.ids.errorText, field.ariaDescribedby].filter(Boolean).join(' ') } : {};
  return <Textarea ref={inputRef} name={name} value={value} maxLength={max} rows={3} autoresize {...described} onChange={(e) => onChange(e.target.value)} />;
}

/** The year error's text. */
export function useYearError(): (error: 'empty' | 'invalid' | undefined, emptyText?: string) => string | undefined {
  const t = useHitsT();
  return (error, emptyText) => (error === 'invalid' ? t('form.errors.year', { max: latestHitYear() }) : error === 'empty' ? emptyText : undefined);
}

/**
 * A dialog that is one form: `onSubmit` runs while the submit button spins; it
 * returns whether the dialog may close. Enter in a one-line field submits.
 */
export function FormDialog({
  id,
  open,
  title,
  submitLabel,
  onClose,
  onSubmit,
  initialFocusEl,
  finalFocusEl,
  children,
}: {
  id: string;
  open: boolean;
  title: string;
  submitLabel: string;
  onClose: () => void;
  onSubmit: () => Promise<boolean>;
  initialFocusEl?: () => HTMLElement | null;
  /** Where the focus goes on close when not back to the opener (which may be gone). */
  finalFocusEl?: RefObject<HTMLElement | null>;
  children: ReactNode;
}) {
  const t = useHitsT();
  const [busy, setBusy] = useState(false);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    void onSubmit()
      .then((done) => done && onClose())
      .finally(() => setBusy(false));
  };
  return (
    <AppDialog
      open={open}
      onClose={onClose}
      size="md"
      title={title}
      {...(initialFocusEl ? { initialFocusEl } : {})}
      {...(finalFocusEl ? { finalFocusEl } : {})}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" form={id} colorPalette="accent" loading={busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={id} onSubmit={submit} noValidate>
        {children}
      </form>
    </AppDialog>
  );
}
