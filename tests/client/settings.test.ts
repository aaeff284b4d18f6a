import { describe, expect, it } from 'vitest';
import { loadSettings, useSettings, volumeToNumber, volumeToString } from '../../client/src/stores/settings.ts';

describe('settings store', () => {
  it('defaults: automatic scheme, full volumes, welcome not dismissed, language detected, the game\'s choices as gaps (not a list), no ticking countdown', () => {
    expect(loadSettings()).toEqual({ colorScheme: 'auto', musicVolume: '1.0', sfxVolume: '1.0', welcome: false, language: null, choicesAsList: false, countdownTicks: false });
  });

  it('keeps "show the choices as a list" (only "true" turns it on)', () => {
    useSettings.getState().setChoicesAsList(true);
    expect(localStorage.getItem('choicesAsList')).toBe('true');
    expect(loadSettings().choicesAsList).toBe(true);
    localStorage.setItem('choicesAsList', 'yes');
    expect(loadSettings().choicesAsList).toBe(false);
  });

  it('keeps the ticking countdown on or off across reloads ("true" only turns it on)', () => {
    useSettings.getState().setCountdownTicks(true);
    expect(localStorage.getItem('countdownTicks')).toBe('true');
    expect(loadSettings().countdownTicks).toBe(true);
    useSettings.getState().setCountdownTicks(false);
    expect(loadSettings().countdownTicks).toBe(false);
    localStorage.setItem('countdownTicks', 'yes');
    expect(loadSettings().countdownTicks).toBe(false);
  });

  it('stores volumes as fractions of 1 in strings', () => {
    useSettings.getState().setMusicVolume(0.35);
    useSettings.getState().setSfxVolume(0);
    expect(localStorage.getItem('musicVolume')).toBe('0.35');
    expect(localStorage.getItem('sfxVolume')).toBe('0.0');
    expect(loadSettings()).toMatchObject({ musicVolume: '0.35', sfxVolume: '0.0' });
    expect(volumeToString(1)).toBe('1.0');
    expect(volumeToString(7)).toBe('1.0');
    expect(volumeToNumber('0.5')).toBe(0.5);
    expect(volumeToNumber('loud')).toBe(1);
  });

  it('ignores unreadable stored values', () => {
    localStorage.setItem('colorScheme', 'purple');
    localStorage.setItem('musicVolume', '3');
    localStorage.setItem('language', 'fr');
    expect(loadSettings()).toMatchObject({ colorScheme: 'auto', musicVolume: '1.0', language: null });
  });

  it('keeps scheme, welcome flag and language', () => {
    const s = useSettings.getState();
    s.setColorScheme('dark');
    s.setWelcome(true);
    s.setLanguage('de');
    expect(loadSettings()).toMatchObject({ colorScheme: 'dark', welcome: true, language: 'de' });
  });
});
