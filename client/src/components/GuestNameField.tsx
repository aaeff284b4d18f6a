import { Field } from '@chakra-ui/react';
import { fieldSlotRecipe, inputRecipe } from '@chakra-ui/react/theme';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_MAX, NAME_MIN } from '../../../shared/rules/constants.ts';
import { GuestNameSchema } from '../../../shared/protocol/users.ts';
import { errorText, i18next } from '../i18n.ts';
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
