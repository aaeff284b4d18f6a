import { Input, useFieldContext, type InputProps } from '@chakra-ui/react';
import type { Ref } from 'react';

/**
 * Chakra's Input whose field error is also its description while the field is
 * invalid: Ark names the error text only in `aria-errormessage`, which screen
 * readers rarely read, so a user coming back to the field would not hear why
 * it is invalid. Use it inside a Field.Root that shows a Field.ErrorText when invalid.
 */
export function FieldInput({ ref, ...props }: InputProps & { ref?: Ref<HTMLInputElement> }) {
  const field = useFieldContext();
  const described = field?.invalid ? { 'aria-describedby': [field.ids.errorText, field.ariaDescribedby].filter(Boolean).join(' ') } : {};
  return <Input ref={ref} {...described} {...props} />;
}
