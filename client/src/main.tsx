import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { initI18n } from './i18n.ts';
import { useSettings } from './stores/settings.ts';
import { applyStoredColorScheme, system } from './theme.ts';

// Before the first render, so the page neither flashes the wrong scheme nor the wrong language.
applyStoredColorScheme();
await initI18n(useSettings.getState().language);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <ChakraProvider value={system}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </ChakraProvider>
  </StrictMode>,
);
