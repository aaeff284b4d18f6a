import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { applyLanguage, i18next, loadNamespace } from '../../client/src/i18n.ts';
import { ImportButton } from '../../client/src/routes/hits/ImportDialog.tsx';
import { useCatalogue } from '../../client/src/stores/catalogue.ts';
import { json, renderApp, signInCurator } from './render.tsx';

/**
 * "Import from an address" in the import dialog (issue 27 §3): the address goes
 * to `POST /api/hits/import-url`, whose dry run shows as a file's does, with the
 * file it came from; the apply sends the dry run's hash, so it writes only what
 * was shown; a refusal says why, in the reader's language. The server's side is
 * tested over real HTTP in tests/server/import-url.test.ts; here a stand-in
 * answers as that route does.
 */

const SHA = 'a'.repeat(64);
const report = (applied: boolean) => ({
  ok: true,
  applied,
  message: '',
  errors: [],
  summary: { hits: { added: 2, changed: 0, unchanged: 0, rejected: 0 }, packs: { added: 0, changed: 0, unchanged: 0, rejected: 0 } },
  hits: {
    added: [0, 1].map((i) => ({ index: i, line: 2 + i, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: `Far Song ${i}`, artist: 'Far Band', year: 1990 + i })),
    changed: [],
    unchanged: 0,
    rejected: [],
  },
  packs: { added: [], changed: [], unchanged: 0, rejected: [] },
  truncated: false,
  source: { url: 'https://other.example/api/hits/export', sha256: SHA, bytes: 300 },
});

interface Sent {
  path: string;
  apply: string | null;
  body: unknown;
}

/** A stand-in of the server: the import route answers `answer`; every call is recorded. */
function server(answer: (sent: Sent) => Response): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/api/hits/packs') return json({ packs: [] });
      const call = { path: url.pathname, apply: url.searchParams.get('apply'), body: init?.body ? JSON.parse(String(init.body)) : undefined };
      sent.push(call);
      return answer(call);
    }),
  );
  return sent;
}

const h = (key: string) => i18next.getFixedT(i18next.language, 'hits')(key);

async function openDialog() {
  renderApp(<ImportButton onApplied={() => {}} />);
  fireEvent.click(screen.getByRole('button', { name: h('import.button') }));
  const dialog = await screen.findByRole('dialog', { name: h('import.title') });
  const section = within(dialog).getByRole('region', { name: h('import.from_address') });
  const field = within(section).getByLabelText(h('import.address')) as HTMLInputElement;
  const check = within(section).getByRole('button', { name: h('import.check_address') });
  return { dialog, section, field, check };
}

beforeAll(async () => {
  await loadNamespace('hits');
});
beforeEach(() => {
  signInCurator();
  useCatalogue.setState({ packs: [], packsLoaded: true });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => applyLanguage('en'));
});

describe('import dialog: from an address', () => {
  it('checks the address on Enter, shows the dry run and where it came from, and applies exactly that file', async () => {
    const sent = server((call) => json(report(call.apply === 'true')));
    const { dialog, field } = await openDialog();
    expect(field.type).toBe('url');
    fireEvent.change(field, { target: { value: '  https://other.example/export  ' } });
    // Enter in the field submits its form
    fireEvent.submit(field.closest('form')!);
    expect(await within(dialog).findByText('Ready to apply: 2 hits to add, 0 to change.')).toBeTruthy();
    expect(within(dialog).getByText('Checked file: https://other.example/api/hits/export')).toBeTruthy();
    expect(within(dialog).getByText('Far Band – Far Song 0 (1990)')).toBeTruthy();
    expect(sent).toEqual([{ path: '/api/hits/import-url', apply: 'false', body: { url: 'https://other.example/export' } }]);

    const apply = within(dialog).getByRole('button', { name: h('import.apply') }) as HTMLButtonElement;
    await waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    expect((await within(dialog).findAllByText('Import applied: 2 hits added, 0 changed.')).length).toBeGreaterThan(0);
    expect(sent[1]).toEqual({ path: '/api/hits/import-url', apply: 'true', body: { url: 'https://other.example/export', sha256: SHA } });
  });

  it('asks for an address before checking, without a request', async () => {
    const sent = server(() => json(report(false)));
    const { section, field, check } = await openDialog();
    fireEvent.click(check);
    expect(await within(section).findByText('Enter the address of a hits.yml.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);
  });

  it.each([
    [
      'en',
      'The address could not be checked.',
      'This server does not fetch that address: refused http://192.168.1.10:8000: 192.168.1.10 is a private network address (RFC 1918 / unique local)',
    ],
    ['de', 'Die Adresse konnte nicht geprüft werden.', 'Diese Adresse ruft der Server nicht ab: refused http://192.168.1.10:8000: 192.168.1.10 is a private network address (RFC 1918 / unique local)'],
  ] as const)('%s: says why an address was refused, and offers nothing to apply', async (lng, title, text) => {
    await act(() => applyLanguage(lng));
    server(() => json({ type: 'error', code: 'address_refused', message: 'refused http://192.168.1.10:8000: 192.168.1.10 is a private network address (RFC 1918 / unique local)' }, 400));
    const { dialog, field, check } = await openDialog();
    fireEvent.change(field, { target: { value: 'http://192.168.1.10:8000/api/hits/export' } });
    fireEvent.click(check);
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(title);
    expect(alert.textContent).toContain(text);
    expect((within(dialog).getByRole('button', { name: h('import.apply') }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('names an oversize file at the address as such, not as a too large request', async () => {
    server(() => json({ type: 'error', code: 'body_too_large', message: 'the file at https://x.example/big is too large (31 MB): the import takes at most 20 MB' }, 413));
    const { dialog, field, check } = await openDialog();
    fireEvent.change(field, { target: { value: 'https://x.example/big' } });
    fireEvent.click(check);
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The file at the address is too large: the file at https://x.example/big is too large (31 MB): the import takes at most 20 MB');
  });

  it('tells a curator to check again when the file changed between the dry run and the apply', async () => {
    server((call) => (call.apply === 'true' ? json({ type: 'error', code: 'import_source_changed', message: 'the file at the address changed since the dry run: check it again before applying' }, 409) : json(report(false))));
    const { dialog, field, check } = await openDialog();
    fireEvent.change(field, { target: { value: 'https://other.example/export' } });
    fireEvent.click(check);
    const apply = (await within(dialog).findByRole('button', { name: h('import.apply') })) as HTMLButtonElement;
    await waitFor(() => expect(apply.disabled).toBe(false));
    fireEvent.click(apply);
    expect((await within(dialog).findByRole('alert')).textContent).toContain('The file at the address has changed since it was checked: check it again before applying it.');
  });
});
