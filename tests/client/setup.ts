import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n } from '../../client/src/i18n.ts';

// Client tests run in English (the fallback) unless a test switches.
beforeAll(async () => {
  await initI18n('en');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});
