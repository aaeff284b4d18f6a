import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadNamespace } from '../../client/src/i18n.ts';
import { HitForm } from '../../client/src/routes/hits/HitForm.tsx';
import { EMPTY_VALUES, MAX_TEXT } from '../../client/src/routes/hits/hit-form.ts';
import { renderApp } from './render.tsx';

/**
 * The hit form as a curator meets it: a text longer than the catalogue takes is
 * not cut short by the field (a pasted text would be saved shortened without a
 * word); the form says what is wrong and does not save.
 */

beforeAll(async () => {
  await loadNamespace('hits');
});

describe('HitForm', () => {
  it('keeps an over-long pasted title as typed, says it is too long, and does not save', () => {
    const saved: unknown[] = [];
    renderApp(
      <HitForm
        initial={{ ...EMPTY_VALUES, artist: 'Artist', year: '1999' }}
        packs={[]}
        submitLabel="Save"
        onSubmit={async (body) => {
          saved.push(body);
          return true;
        }}
      />,
    );
    const title = screen.getByRole('textbox', { name: /Title/ }) as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    fireEvent.change(title, { target: { value: 'x'.repeat(5000) } });
    expect(title.value).toHaveLength(5000);
    expect(title.maxLength).toBe(-1);
    expect(screen.getByText(`At most ${MAX_TEXT} characters.`)).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(save.disabled).toBe(true);
    fireEvent.submit(save.closest('form')!);
    expect(saved).toEqual([]);

    // at the limit it saves, as typed
    fireEvent.change(title, { target: { value: 'y'.repeat(MAX_TEXT) } });
    expect(screen.queryByText(`At most ${MAX_TEXT} characters.`)).toBeNull();
    expect(save.disabled).toBe(false);
    fireEvent.submit(save.closest('form')!);
    expect(saved).toEqual([expect.objectContaining({ title: 'y'.repeat(MAX_TEXT), artist: 'Artist', year: 1999 })]);
  });
});
