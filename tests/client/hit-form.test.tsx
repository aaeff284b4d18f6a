import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadNamespace } from '../../client/src/i18n.ts';
import { HitForm } from '../../client/src/routes/hits/HitForm.tsx';
import { CreatePackButton, PackList } from '../../client/src/routes/hits/PackChooser.tsx';
import { EMPTY_VALUES, MAX_TEXT, type HitFormValues } from '../../client/src/routes/hits/hit-form.ts';
import { renderApp, signInCurator } from './render.tsx';

/**
 * The hit form as a curator meets it: a text longer than the catalogue takes is
 * not cut short by the field (a pasted text would be saved shortened without a
 * word); the form says what is wrong and does not save. The same for a pack name.
 */

afterEach(() => vi.unstubAllGlobals());

/** Every request the page makes, as "METHOD url" (each answered with an error: none should be made). */
/**
 * Records the requests that would change something (every method but GET): the
 * pack list may reload itself meanwhile, and on a busy machine such a GET of an
 * earlier test can land in a later one.
 */
function recordRequests(): string[] {
  const requests: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (method !== 'GET') requests.push(`${method} ${String(input)}`);
      return new Response('{}', { status: 500 });
    }),
  );
  return requests;
}

beforeAll(async () => {
  await loadNamespace('hits');
});

/** Renders the hit form with `initial` values; returns the bodies it saves. */
function renderForm(initial: HitFormValues): unknown[] {
  const saved: unknown[] = [];
  renderApp(
    <HitForm
      initial={initial}
      packs={[]}
      submitLabel="Save"
      onSubmit={async (body) => {
        saved.push(body);
        return true;
      }}
    />,
  );
  return saved;
}

describe('HitForm', () => {
  it('keeps an over-long pasted title as typed, says it is too long, and does not save', () => {
    const saved = renderForm({ ...EMPTY_VALUES, artist: 'Artist', year: '1999' });
    const title = screen.getByRole('textbox', { name: /Title/ }) as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    fireEvent.change(title, { target: { value: 'x'.repeat(5000) } });
    expect(title.value).toHaveLength(5000);
    // a browser cuts what is typed or pasted at maxLength (setting the value from code is not cut)
    for (const name of [/Title/, /Artist/, /Belongs to/]) expect((screen.getByRole('textbox', { name }) as HTMLInputElement).maxLength, String(name)).toBe(-1);
    expect(screen.getByText(`At most ${MAX_TEXT} characters.`)).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
    // the error is the field's description, so a screen reader says why when the user comes back to it
    expect(document.getElementById(title.getAttribute('aria-describedby')!)?.textContent).toBe(`At most ${MAX_TEXT} characters.`);
    // Save is marked disabled but stays reachable, and names the reason
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(save.disabled).toBe(false);
    expect(document.getElementById(save.getAttribute('aria-describedby')!)?.textContent).toBe('Correct the marked fields to save.');
    fireEvent.submit(save.closest('form')!);
    expect(saved).toEqual([]);
    expect(document.activeElement).toBe(title);

    // at the limit it saves, as typed
    fireEvent.change(title, { target: { value: 'y'.repeat(MAX_TEXT) } });
    expect(screen.queryByText(`At most ${MAX_TEXT} characters.`)).toBeNull();
    expect(save.hasAttribute('aria-disabled')).toBe(false);
    fireEvent.submit(save.closest('form')!);
    expect(saved).toEqual([expect.objectContaining({ title: 'y'.repeat(MAX_TEXT), artist: 'Artist', year: 1999 })]);
  });

  it('says which text has direction or invisible characters, and does not save it', () => {
    const saved = renderForm({ ...EMPTY_VALUES, artist: 'Artist', year: '1999' });
    const title = screen.getByRole('textbox', { name: /Title/ }) as HTMLInputElement;
    const message = 'Remove the invisible or text-direction characters: they make the text read other than it looks.';
    fireEvent.change(title, { target: { value: 'Song \u202Egnos' } });
    expect(screen.getByText(message)).toBeTruthy();
    expect(title.getAttribute('aria-invalid')).toBe('true');
    fireEvent.submit(title.closest('form')!);
    expect(saved).toEqual([]);
    fireEvent.change(title, { target: { value: 'Song \u{1F3B5}' } });
    expect(screen.queryByText(message)).toBeNull();
    fireEvent.submit(title.closest('form')!);
    expect(saved).toEqual([expect.objectContaining({ title: 'Song \u{1F3B5}' })]);
  });

  it('an empty form: a save shows every missing field and puts the focus on the first; passing through fields does not', async () => {
    const saved = renderForm(EMPTY_VALUES);
    const title = screen.getByRole('textbox', { name: /Title/ });
    fireEvent.focus(title);
    fireEvent.blur(title);
    expect(screen.queryByText('Required.')).toBeNull();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(document.getElementById(save.getAttribute('aria-describedby')!)?.textContent).toBe('Fill in title, artist and year to save.');
    await act(async () => fireEvent.click(save));
    expect(saved).toEqual([]);
    expect(screen.getAllByText('Required.')).toHaveLength(3);
    expect(document.activeElement).toBe(title);
  });

  it('renames and deletes packs where they are made: in the hit form, without sending the form; a deleted pack is no longer chosen', async () => {
    signInCurator();
    const requests: string[] = [];
    const rock = { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01', name: 'Rock', hits: 3 };
    const pop = { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a02', name: 'Pop', hits: 1 };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        requests.push(`${method} ${String(input)}`);
        const body = method === 'GET' ? { packs: [rock, pop] } : { type: 'success', message: 'ok' };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const saved: unknown[] = [];
    renderApp(
      <HitForm
        initial={{ ...EMPTY_VALUES, title: 'Song', artist: 'Band', year: '1999', packs: [rock.id, pop.id] }}
        packs={[rock, pop]}
        submitLabel="Save"
        onSubmit={async (body) => {
          saved.push(body);
          return true;
        }}
      />,
    );
    // one create button (beside the legend), and rename and delete per pack
    expect(screen.getAllByRole('button', { name: 'Create pack' })).toHaveLength(1);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Rename Rock' })));
    const field = screen.getByRole('textbox', { name: 'Rename Rock' });
    fireEvent.change(field, { target: { value: 'Hard Rock' } });
    await act(async () => fireEvent.keyDown(field, { key: 'Enter' }));
    expect(requests.filter((r) => !r.startsWith('GET'))).toEqual([`PATCH /api/hits/packs/${rock.id}`]);
    expect(saved).toEqual([]);
    // each change reloads the packs
    await waitFor(() => expect(requests.filter((r) => r.startsWith('GET'))).toHaveLength(1));

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete Pop' })));
    const ask = await screen.findByRole('alertdialog', { name: 'Delete pack?' });
    expect(ask.textContent).toContain('Delete the pack Pop? Its 1 hit stays in the catalogue.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Yes' })));
    expect(requests.filter((r) => !r.startsWith('GET'))).toEqual([`PATCH /api/hits/packs/${rock.id}`, `DELETE /api/hits/packs/${pop.id}`]);
    expect(saved).toEqual([]);
    await waitFor(() => expect(requests.filter((r) => r.startsWith('GET'))).toHaveLength(2));
    // the hit keeps its other pack; the deleted one is not sent
    fireEvent.submit(document.querySelector('input[name="title"]')!.closest('form')!);
    expect(saved).toEqual([expect.objectContaining({ packs: [rock.id] })]);
  });

  it('the create-pack dialog inside the hit form creates the pack only: the hit form is not sent', async () => {
    signInCurator();
    const requests: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
        const created = { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a02', name: 'Party', hits: 0 };
        return new Response(JSON.stringify(String(input).endsWith('/api/hits/packs') && init?.method === 'POST' ? created : []), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
    const saved = renderForm({ ...EMPTY_VALUES, title: 'Half typed', artist: 'Someone', year: '1999' });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create pack' })));
    const name = await screen.findByRole('textbox', { name: /Pack name/ });
    fireEvent.change(name, { target: { value: 'Party' } });
    await act(async () => fireEvent.submit(name.closest('form')!));
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([expect.stringMatching(/^POST .*\/api\/hits\/packs$/)]);
    expect(saved).toEqual([]);
  });

  it('create pack: an over-long name is kept as typed, refused with a message, and nothing is sent', async () => {
    const requests = recordRequests();
    renderApp(<CreatePackButton />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create pack' })));
    const name = (await screen.findByRole('textbox', { name: /Pack name/ })) as HTMLInputElement;
    const create = screen.getByRole('button', { name: 'Create' }) as HTMLButtonElement;
    fireEvent.change(name, { target: { value: 'P'.repeat(500) } });
    expect(name.value).toHaveLength(500);
    expect(name.maxLength).toBe(-1);
    expect(screen.getByText('At most 100 characters.')).toBeTruthy();
    expect(create.disabled).toBe(true);
    await act(async () => fireEvent.submit(create.closest('form')!));
    expect(requests).toEqual([]);
    fireEvent.change(name, { target: { value: 'P'.repeat(100) } });
    expect(screen.queryByText('At most 100 characters.')).toBeNull();
    expect(create.disabled).toBe(false);
    // a zero-width space: refused with its message
    fireEvent.change(name, { target: { value: 'Par\u200Bty' } });
    expect(screen.getByText('Remove the invisible or text-direction characters: they make the name read other than it looks.')).toBeTruthy();
    expect(create.disabled).toBe(true);
    await act(async () => fireEvent.submit(create.closest('form')!));
    expect(requests).toEqual([]);
  });

  it('rename pack: an over-long name is kept as typed, refused with a message, and nothing is sent', async () => {
    signInCurator();
    const requests = recordRequests();
    const pack = { id: '0b6f6f5e-1c7a-4b7e-9a43-2f1f3c1d0a01', name: '1950s', hits: 40 };
    renderApp(<PackList packs={[pack]} mode="select" selected={[]} onToggle={() => undefined} manage label="Filter by pack" />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Rename/ })));
    const name = screen.getByRole('textbox', { name: 'Rename 1950s' }) as HTMLInputElement;
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    fireEvent.change(name, { target: { value: 'R'.repeat(101) } });
    expect(name.maxLength).toBe(-1);
    expect(screen.getByText('At most 100 characters.')).toBeTruthy();
    expect(save.disabled).toBe(true);
    // Return in the field saves (it is no form of its own: the list also sits inside the hit form)
    await act(async () => fireEvent.keyDown(name, { key: 'Enter' }));
    expect(requests).toEqual([]);
    fireEvent.change(name, { target: { value: 'R'.repeat(100) } });
    expect(screen.queryByText('At most 100 characters.')).toBeNull();
    expect(save.disabled).toBe(false);
  });
});
