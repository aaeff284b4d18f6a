import { afterAll, describe, expect, it } from 'vitest';
import { applyLanguage, hasNamespace, i18next, loadNamespace } from '../../client/src/i18n.ts';

/** The catalogue screens' messages load on demand (namespace `hits`) and follow language switches. */
describe('lazily loaded namespaces', () => {
  afterAll(async () => {
    await applyLanguage('en');
  });

  it('loads the hits messages on demand', async () => {
    await applyLanguage('en');
    await loadNamespace('hits');
    expect(hasNamespace('hits')).toBe(true);
    expect(i18next.t('hits:browse.title')).toBe('Browse hits');
    expect(i18next.getFixedT(null, 'hits')('packs.entry', { name: '1980s', count: 1 })).toBe('1980s (1 hit)');
  });

  it('loads them for a new language before switching to it', async () => {
    await loadNamespace('hits');
    await applyLanguage('de');
    expect(hasNamespace('hits')).toBe(true);
    expect(i18next.t('hits:browse.title')).toBe('Hits durchsuchen');
    await applyLanguage('en');
    expect(i18next.t('hits:browse.title')).toBe('Browse hits');
  });
});
