import { i18next } from '../../i18n.ts';

/** "Ana, Ben and Cleo" in the current language. */
export const listNames = (names: readonly string[]): string =>
  new Intl.ListFormat(i18next.language, { style: 'long', type: 'conjunction' }).format(names);
