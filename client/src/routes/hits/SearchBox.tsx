import { Field, Input } from '@chakra-ui/react';
import { useEffect, useRef, useState } from 'react';
import './recipes.ts';
import { MAX_QUERY_LENGTH } from './url-state.ts';
import { useHitsT } from './use-hits.ts';

/** How long typing must pause before the search runs (docs/api.md#search: the reference client waits 300 ms). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The debounced search box (docs/product.md#screens): the address (`q`) is the truth; typing
 * updates the box at once and the address after a pause. When the address
 * changes by other means (Back, a pack link), the box follows it.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (query: string) => void }) {
  const t = useHitsT();
  const [text, setText] = useState(value);
  /** What this box last sent, so its own echo from the address does not overwrite newer typing. */
  const sent = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });

  useEffect(() => {
    if (value === sent.current) return;
    sent.current = value;
    clearTimeout(timer.current);
    setText(value);
  }, [value]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const change = (next: string): void => {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (next === sent.current) return;
      sent.current = next;
      latest.current(next);
    }, SEARCH_DEBOUNCE_MS);
  };

  return (
    <Field.Root maxW={{ base: 'full', md: 'xl' }}>
      <Field.Label>{t('browse.search_label')}</Field.Label>
      <Input
        type="search"
        name="q"
        value={text}
        maxLength={MAX_QUERY_LENGTH}
        autoComplete="off"
        placeholder={t('browse.search_placeholder')}
        onChange={(e) => change(e.target.value)}
      />
      <Field.HelperText>{t('browse.search_help')}</Field.HelperText>
    </Field.Root>
  );
}
