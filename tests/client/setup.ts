import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n, loadNamespace } from '../../client/src/i18n.ts';

// Client tests run in English (the fallback) unless a test switches.
beforeAll(async () => {
  await initI18n('en');
  // the game screen's table (loaded with the screen in the app)
  await loadNamespace('table');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
