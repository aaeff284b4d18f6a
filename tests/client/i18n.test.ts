import { afterAll, describe, expect, it } from 'vitest';
import { applyLanguage, detectLanguage, errorText, i18next } from '../../client/src/i18n.ts';
import { ApiError } from '../../client/src/net/api.ts';

describe('language detection', () => {
  it('takes the first available language, by exact tag or by its primary subtag', () => {
    expect(detectLanguage(['de'])).toBe('de');
    expect(detectLanguage(['de-AT', 'en'])).toBe('de');
    expect(detectLanguage(['de_CH'])).toBe('de');
    expect(detectLanguage(['fr-FR', 'de-DE', 'en'])).toBe('de');
    expect(detectLanguage(['en-GB'])).toBe('en');
  });

  it('falls back to English', () => {
    expect(detectLanguage([])).toBe('en');
    expect(detectLanguage(['fr', 'it-IT'])).toBe('en');
  });
});

describe('the active language', () => {
  afterAll(async () => {
    await applyLanguage('en');
  });

  it('switches the messages and the page language', async () => {
    await applyLanguage('de');
    expect(i18next.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
    expect(i18next.t('error_dialog.title')).toBe('Fehler');
    await applyLanguage('en');
    expect(document.documentElement.lang).toBe('en');
    expect(i18next.t('error_dialog.title')).toBe('Error');
  });
});

describe('errorText', () => {
  it('translates a known code and falls back to the server message', () => {
    expect(errorText(new ApiError(409, 'not_enough_players', 'you need at least two players to start a game'))).toBe(
      'You need at least two players to start a game.',
    );
    expect(errorText(new ApiError(418, 'brand_new_code', 'the server says so'))).toBe('the server says so');
  });

  it('carries the server message into texts that need its details', () => {
    const msg = "There aren't enough hits available to start a game (3 individual hits in the currently selected packs, 40 hits are required)";
    expect(errorText(new ApiError(409, 'not_enough_hits', msg))).toBe(msg);
  });
});
