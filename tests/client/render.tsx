import { ChakraProvider } from '@chakra-ui/react';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
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
