import { afterAll, describe, expect, it } from 'vitest';
import { applyLanguage, detectLanguage, errorText, formatNumber, i18next } from '../../client/src/i18n.ts';
import { ApiError } from '../../client/src/net/api.ts';
import { playerStatus } from '../../client/src/routes/game/game-actions.ts';
import { player } from './game-fixtures.ts';

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

  it('German: the player who has still to confirm "soll bestätigen" (not "bestätigt": that says it is done)', async () => {
    await applyLanguage('de');
    try {
      expect(playerStatus(player('ben', { state: 'Confirming' }))).toBe('soll bestätigen');
      expect(i18next.t('game.settings.clue_mode')).toBe('Spielvariante');
    } finally {
      await applyLanguage('en');
    }
  });

  it('says a server message in German with its numbers, not the English text in brackets', async () => {
    await applyLanguage('de');
    try {
      const msg = "There aren't enough hits available to start a game (3 individual hits in the currently selected packs, 40 hits are required)";
      expect(errorText(new ApiError(409, 'not_enough_hits', msg))).toBe('Es gibt nicht genug Hits, um das Spiel zu starten: 3 verschiedene Hits in den gewählten Paketen, nötig sind 40.');
    } finally {
      await applyLanguage('en');
    }
  });
});

describe('number format of counts', () => {
  afterAll(async () => {
    await applyLanguage('en');
  });

  it('groups whole numbers exactly as Intl.NumberFormat does, in both languages', () => {
    const samples = [0, 1, 7, 12, 999, 1000, 1234, 9999, 10000, 65536, 100000, 999999, 1000000, 1234567, 2 ** 31, Number.MAX_SAFE_INTEGER];
    for (let n = 0; n < 3000; n++) samples.push(Math.floor(Math.random() * 10 ** (1 + (n % 15))));
    for (const lng of ['en', 'de'] as const) {
      const intl = new Intl.NumberFormat(lng);
      for (const v of [...samples, ...samples.filter((x) => x > 0).map((x) => -x)]) expect(formatNumber(v, lng), `${lng} ${v}`).toBe(intl.format(v));
    }
  });

  it('leaves fractions, other languages and options to Intl', () => {
    expect(formatNumber(1234.5, 'en')).toBe(new Intl.NumberFormat('en').format(1234.5));
    expect(formatNumber(1234.5, 'de')).toBe(new Intl.NumberFormat('de').format(1234.5));
    expect(formatNumber(1234567, 'fr')).toBe(new Intl.NumberFormat('fr').format(1234567));
  });

  it('is what the messages use for counts', async () => {
    expect(i18next.t('count.hits', { count: 7184 })).toBe('7,184 hits');
    await applyLanguage('de');
    expect(i18next.t('count.hits', { count: 7184 })).toMatch(/^7\.184 /);
  });
});
