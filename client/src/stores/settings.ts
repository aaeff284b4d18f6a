import { create } from 'zustand';

/**
 * Local preferences (docs/product.md#entities), one localStorage key each so they survive
 * reloads and follow other tabs: colour scheme, music and effects volumes
 * (strings "0.0"–"1.0", as the reference client stored them), the welcome flag
 * (true once the welcome dialog was dismissed), the chosen language (absent =
 * follow the browser), whether the game screen shows its choices as a list
 * (radio buttons) instead of the gaps of a row of cards, and the ticking
 * countdown (both off unless "true").
 */

export const COLOR_SCHEMES = ['auto', 'light', 'dark'] as const;
export type ColorScheme = (typeof COLOR_SCHEMES)[number];

export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export const STORAGE_KEYS = {
  colorScheme: 'colorScheme',
  musicVolume: 'musicVolume',
  sfxVolume: 'sfxVolume',
  welcome: 'welcome',
  language: 'language',
  choicesAsList: 'choicesAsList',
  countdownTicks: 'countdownTicks',
} as const;

export interface SettingsState {
  colorScheme: ColorScheme;
  /** "0.0".."1.0" */
  musicVolume: string;
  /** "0.0".."1.0" */
  sfxVolume: string;
  /** The welcome dialog was dismissed. */
  welcome: boolean;
  /** The chosen language; null = detected from the browser. */
  language: Language | null;
  /** The game's choices (the gaps of the timeline) shown as a list of radio buttons. */
  choicesAsList: boolean;
  /** A countdown ticks through its last 10 seconds (off by default). */
  countdownTicks: boolean;
  setColorScheme(scheme: ColorScheme): void;
  setMusicVolume(fraction: number): void;
  setSfxVolume(fraction: number): void;
  setWelcome(dismissed: boolean): void;
  setLanguage(language: Language): void;
  setChoicesAsList(on: boolean): void;
  setCountdownTicks(on: boolean): void;
}

/** A volume as stored: a fraction of 1 with one decimal at least ("1.0", "0.35"). */
export function volumeToString(fraction: number): string {
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 1));
  const rounded = Math.round(clamped * 100) / 100;
  return Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
}

/** A stored volume as a number in 0..1 (1 when unreadable). */
export function volumeToNumber(stored: string): number {
  const n = Number(stored);
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : 1;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // disabled storage (privacy mode) throws on access
    return null;
  }
}

function read(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // quota or disabled storage: the setting still holds for this page
  }
}

const isColorScheme = (v: unknown): v is ColorScheme => COLOR_SCHEMES.includes(v as ColorScheme);
export const isLanguage = (v: unknown): v is Language => LANGUAGES.includes(v as Language);
const isVolume = (v: string | null): v is string => v !== null && v.trim() !== '' && Number(v) >= 0 && Number(v) <= 1;

/** The stored values, validated; anything unreadable falls back to its default. */
export function loadSettings(): Pick<SettingsState, 'colorScheme' | 'musicVolume' | 'sfxVolume' | 'welcome' | 'language' | 'choicesAsList' | 'countdownTicks'> {
  const scheme = read(STORAGE_KEYS.colorScheme);
  const music = read(STORAGE_KEYS.musicVolume);
  const sfx = read(STORAGE_KEYS.sfxVolume);
  const language = read(STORAGE_KEYS.language);
  return {
    colorScheme: isColorScheme(scheme) ? scheme : 'auto',
    musicVolume: isVolume(music) ? music : '1.0',
    sfxVolume: isVolume(sfx) ? sfx : '1.0',
    welcome: read(STORAGE_KEYS.welcome) === 'true',
    language: isLanguage(language) ? language : null,
    choicesAsList: read(STORAGE_KEYS.choicesAsList) === 'true',
    countdownTicks: read(STORAGE_KEYS.countdownTicks) === 'true',
  };
}

export const useSettings = create<SettingsState>()((set) => ({
  ...loadSettings(),
  setColorScheme(colorScheme) {
    write(STORAGE_KEYS.colorScheme, colorScheme);
    set({ colorScheme });
  },
  setMusicVolume(fraction) {
    const musicVolume = volumeToString(fraction);
    write(STORAGE_KEYS.musicVolume, musicVolume);
    set({ musicVolume });
  },
  setSfxVolume(fraction) {
    const sfxVolume = volumeToString(fraction);
    write(STORAGE_KEYS.sfxVolume, sfxVolume);
    set({ sfxVolume });
  },
  setWelcome(welcome) {
    write(STORAGE_KEYS.welcome, String(welcome));
    set({ welcome });
  },
  setLanguage(language) {
    write(STORAGE_KEYS.language, language);
    set({ language });
  },
  setChoicesAsList(choicesAsList) {
    write(STORAGE_KEYS.choicesAsList, String(choicesAsList));
    set({ choicesAsList });
  },
  setCountdownTicks(countdownTicks) {
    write(STORAGE_KEYS.countdownTicks, String(countdownTicks));
    set({ countdownTicks });
  },
}));

/** Follows changes made in other tabs (the `storage` event fires only in the others). */
export function syncSettingsAcrossTabs(): () => void {
  const onStorage = (e: StorageEvent): void => {
    if (e.key === null || (Object.values(STORAGE_KEYS) as string[]).includes(e.key)) useSettings.setState(loadSettings());
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
