import { Field } from '@chakra-ui/react';
import { fieldSlotRecipe, inputRecipe } from '@chakra-ui/react/theme';
import { useRef, useState, type ReactElement, type Ref, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_MAX, NAME_MIN } from '../../../shared/rules/constants.ts';
import { GuestNameSchema } from '../../../shared/protocol/users.ts';
import { errorText, i18next } from '../i18n.ts';
import { renameMe } from '../net/users.ts';
import { FIELD_STYLES, registerRecipes, withTouchSizes } from '../theme.ts';
import { FieldInput } from './FieldInput.tsx';

registerRecipes({ recipes: { input: withTouchSizes(inputRecipe, FIELD_STYLES) }, slotRecipes: { field: fieldSlotRecipe } });

/**
 * A guest's name as he types it (the join dialog, the user menu's rename, the
 * host of a Local game): the rules of players' names, said while typing; what
 * only the server knows (an account has the name, or one that looks like it)
 * comes back as `serverError`. Needs the `people` namespace.
 */

/** What is wrong with a typed name by the shared rules (`null`: nothing), as the field says it. */
export function guestNameProblem(name: string): string | null {
  const t = (key: string, params?: Record<string, unknown>): string => i18next.t(key, params ?? {});
  const trimmed = name.trim();
  if (trimmed === '') return t('people:name.empty');
  const length = [...trimmed].length;
  if (length < NAME_MIN || length > NAME_MAX) return t('people:name.hint', { min: NAME_MIN, max: NAME_MAX });
  return GuestNameSchema.safeParse(trimmed).success ? null : t('people:name.unusable');
}

/** The field's words for a refused rename (409s named; anything else as the error says). */
export function renameErrorText(err: unknown): string {
  const t = (key: string): string => i18next.t(key);
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'username_taken') return t('people:name.taken');
  if (code === 'username_look_alike') return t('people:name.look_alike');
  return errorText(err);
}

export function GuestNameField({
  value,
  onChange,
  problem,
  inputRef,
  label,
}: {
  value: string;
  onChange: (name: string) => void;
  /** What to say is wrong (shown once the user typed or submitted), or null. */
  problem: string | null;
  inputRef?: Ref<HTMLInputElement>;
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <Field.Root required invalid={problem !== null}>
      <Field.Label>{label ?? t('people:name.label')}</Field.Label>
      <FieldInput ref={inputRef} value={value} maxLength={NAME_MAX * 2} autoComplete="nickname" onChange={(e) => onChange(e.target.value)} />
      {problem !== null ? <Field.ErrorText>{problem}</Field.ErrorText> : <Field.HelperText>{t('people:name.hint', { min: NAME_MIN, max: NAME_MAX })}</Field.HelperText>}
    </Field.Root>
  );
}

/**
 * The name part of a dialog that may rename a guest (join, "Who is playing?",
 * the user menu's rename): the field, its problem once typed or submitted, and
 * `commit`, which checks the name and renames the guest when it changed. `asks`:
 * whether this user is asked at all (an account plays under its name).
 */
export function useGuestRename(asks: boolean): {
  name: string;
  busy: boolean;
  /** Starts over from `initial` (each opening of the dialog). */
  reset: (initial: string) => void;
  /**
   * Checks the name and renames the guest when it differs from `current`, then
   * calls `then` (at once when there is nothing to rename); when the name is
   * wrong or refused, the field says why and has the focus, and `then` is not called.
   */
  commit: (current: string | undefined, then: () => void) => void;
  field: ReactElement;
  /** The field's input (a dialog may give it the first focus). */
  inputRef: RefObject<HTMLInputElement | null>;
} {
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const problem = asks ? (serverError ?? (touched ? guestNameProblem(name) : null)) : null;

  const reset = (initial: string): void => {
    setName(initial);
    setTouched(false);
    setServerError(null);
  };

  const commit = (current: string | undefined, then: () => void): void => {
    setTouched(true);
    if (asks && guestNameProblem(name)) {
      inputRef.current?.focus();
      return;
    }
    const wanted = name.trim();
    if (!asks || wanted === current) {
      then();
      return;
    }
    setBusy(true);
    renameMe(wanted).then(
      () => {
        setBusy(false);
        then();
      },
      (err: unknown) => {
        setBusy(false);
        setServerError(renameErrorText(err));
        inputRef.current?.focus();
      },
    );
  };

  const field = (
    <GuestNameField
      value={name}
      inputRef={inputRef}
      problem={problem}
      onChange={(value) => {
        setName(value);
        setTouched(true);
        setServerError(null);
      }}
    />
  );
  return { name, busy, reset, commit, field, inputRef };
}
