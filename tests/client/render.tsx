import { ChakraProvider } from '@chakra-ui/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { system } from '../../client/src/theme.ts';

/** Renders `ui` as the app does: the design system and a router at `path`. */
export function renderApp(ui: ReactElement, path = '/'): RenderResult {
  return render(
    <ChakraProvider value={system}>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </ChakraProvider>,
  );
}

/** A JSON Response, as fetch would give it. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** Signs in a curator (may write hits and packs) for the catalogue screens. */
export function signInCurator(): void {
  resetSessionForTests();
  useSession.setState({
    ready: true,
    user: {
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      name: 'curator',
      virtual: false,
      valid_until: '2030-01-01T10:00:00.000Z',
      permissions: { write_hits: true, write_packs: true, read_issues: false, write_issues: false, delete_issues: false },
    },
  });
}

/** An element's text as a screen reader gets it: without what is hidden from it (aria-hidden avatars, icons). */
export function spokenText(el: Element): string {
  const copy = el.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent ?? '';
}
