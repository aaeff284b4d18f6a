import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
// React and the router above, the design system and the app below: evaluated in two tasks
import './main-yield.ts';
import { ChakraProvider } from '@chakra-ui/react';
import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { nextTask } from './next-task.ts';
import { useSettings } from './stores/settings.ts';
import { useSession } from './stores/session.ts';
import { applyStoredColorScheme, getSystem } from './theme.ts';
// the design system's global CSS, compiled ahead of time (theme-css.ts), and the static shell's
import './theme.css';
import './theme-shell.css';
// the display face (self-hosted; swaps in when it arrives, see the file)
import './theme-fonts.css';

// The static shell in index.html (the loading screen, docs/product.md#screens) stays until the
// app first renders, once the user is known; boot.js gave it the scheme and the
// language already. Meanwhile, each piece of start-up work in a task of its own:
applyStoredColorScheme();
await nextTask();
// the session check, under way while the rest is done
const session = useSession.getState().start();
await nextTask();
// the design system (~30 ms on a phone, the longest single step)
const system = getSystem();
await nextTask();
// the messages, in the language the page will be in
await initI18n(useSettings.getState().language);
await session;
await nextTask();

const root = createRoot(document.getElementById('root') as HTMLElement);
// A transition renders in slices of a few milliseconds, so no single task blocks
// the page for long (total blocking time, budget P10).
startTransition(() =>
  root.render(
    <StrictMode>
      <ChakraProvider value={system}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </ChakraProvider>
    </StrictMode>,
  ),
);
