import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../../locales/en.json' with { type: 'json' };
import { isLanguage, LANGUAGES, type Language } from './stores/settings.ts';

/**
 * Translations (docs/product.md#overview: English fallback, German). Every string a person reads
 * comes from `locales/`; server errors are shown by code (`errors.<code>`) with
 * the server's English message as the fallback. English (the fallback) is
 * bundled; other languages load on demand, keeping the initial JS small (P9).
 */

export const FALLBACK_LANGUAGE: Language = 'en';

type Messages = Record<string, unknown>;

/** Where each language's messages come from; English is always there. */
const LOADERS: Record<Language, () => Promise<Messages>> = {
  en: () => Promise.resolve(en),
  de: () => import('../../locales/de.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
};

async function ensureMessages(lng: Language): Promise<void> {
  if (i18next.hasResourceBundle(lng, 'translation')) return;
  i18next.addResourceBundle(lng, 'translation', await LOADERS[lng](), true, true);
}

/**
 * Namespaces of lazily loaded screens (`locales/<ns>.<lng>.json`), loaded with
 * their screens by {@link loadNamespace}, never with the first page.
 */
const NAMESPACE_LOADERS = {
  hits: {
    en: () => import('../../locales/hits.en.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
    de: () => import('../../locales/hits.de.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
  },
  // the game screen's table: the rows of cards, their gaps, the mystery card and the actions beside it
  table: {
    en: () => import('../../locales/table.en.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
    de: () => import('../../locales/table.de.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
  },
  // the game screen's people: names, emoji, and the game's state in words
  people: {
    en: () => import('../../locales/people.en.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
    de: () => import('../../locales/people.de.json', { with: { type: 'json' } }).then((m) => m.default as Messages),
  },
} satisfies Record<string, Record<Language, () => Promise<Messages>>>;
export type Namespace = keyof typeof NAMESPACE_LOADERS;
export const NAMESPACES = Object.keys(NAMESPACE_LOADERS) as Namespace[];

/** Namespaces some screen asked for: a language switch loads them too, before it takes effect. */
const wantedNamespaces = new Set<Namespace>();

async function ensureNamespace(ns: Namespace, lng: Language): Promise<void> {
  if (i18next.hasResourceBundle(lng, ns)) return;
  i18next.addResourceBundle(lng, ns, await NAMESPACE_LOADERS[ns][lng](), true, true);
}

/** Are a namespace's messages there for the current language (and the English fallback)? */
export function hasNamespace(ns: Namespace): boolean {
  const lng = isLanguage(i18next.language) ? i18next.language : FALLBACK_LANGUAGE;
  return i18next.hasResourceBundle(lng, ns) && i18next.hasResourceBundle(FALLBACK_LANGUAGE, ns);
}

/** Loads a namespace for the current language and the English fallback, and keeps it loaded across language switches. */
export async function loadNamespace(ns: Namespace): Promise<void> {
  wantedNamespaces.add(ns);
  const lng = isLanguage(i18next.language) ? i18next.language : FALLBACK_LANGUAGE;
  await Promise.all([ensureNamespace(ns, FALLBACK_LANGUAGE), ensureNamespace(ns, lng)]);
}

/**
 * The first of the browser's languages we have: an exact match ("de"), or one
 * whose primary subtag we have ("de-AT" → "de"); English otherwise.
 */
export function detectLanguage(candidates: readonly string[]): Language {
  for (const raw of candidates) {
    const tag = raw.trim().toLowerCase().replace('_', '-');
    if (isLanguage(tag)) return tag;
    const primary = tag.split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return FALLBACK_LANGUAGE;
}

/** The browser's preferred languages, most preferred first. */
export function browserLanguages(): string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? [...navigator.languages] : navigator.language ? [navigator.language] : [];
}

/**
 * Initialises the one i18next instance and switches to `language` (detected
 * when null). Resolves once that language's messages are loaded, so the first
 * render is already in the right language.
 */
export async function initI18n(language: Language | null): Promise<I18n> {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      resources: { en: { translation: en } },
      // the errors only the game screen meets are in its namespace (errors.<code>), loaded with it
      fallbackNS: 'table',
      lng: FALLBACK_LANGUAGE,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      // React escapes what it renders, and announcements are text nodes: escaping here would show "&amp;".
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    });
    i18next.services.formatter?.add('number', formatNumber);
  }
  await applyLanguage(language);
  return i18next;
}

/** The thousands separator of each language, as Intl.NumberFormat writes it ("1,234", "1.234"). */
const THOUSANDS_SEPARATOR: Record<Language, string> = { en: ',', de: '.' };

/**
 * The messages' `number` format (`{{count, number}}`: only counts use it).
 * Whole numbers are grouped here: the first Intl.NumberFormat of a page loads
 * the language's number data, a task of ~30 ms on a phone (budget P10), for
 * what in our languages is one separator. Anything else still goes to Intl.
 */
export function formatNumber(value: unknown, lng: string | undefined, options?: Intl.NumberFormatOptions): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || !isLanguage(lng)) return new Intl.NumberFormat(lng, options).format(value as number);
  const digits = String(Math.abs(value)).replace(/\B(?=(\d{3})+$)/g, THOUSANDS_SEPARATOR[lng]);
  return value < 0 ? `-${digits}` : digits;
}

/** Switches the language (loading its messages first) and the page's `lang`. */
export async function applyLanguage(language: Language | null): Promise<void> {
  const lng = language ?? detectLanguage(browserLanguages());
  try {
    await ensureMessages(lng);
    await Promise.all([...wantedNamespaces].map((ns) => ensureNamespace(ns, lng)));
  } catch (err) {
    // offline: stay in the current language rather than show keys
    console.warn(`messages for ${lng} could not be loaded`, err);
    return;
  }
  if (i18next.language !== lng) await i18next.changeLanguage(lng);
  setDocumentLanguage(lng);
}

function setDocumentLanguage(lng: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}

/** What an error says to a person: its translated code, else the server's message, else a generic text. */
export function errorText(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' && e.message !== '' ? e.message : i18next.t('errors.unknown');
  if (typeof e?.code === 'string' && /^[a-z][a-z0-9_]*$/.test(e.code)) {
    return i18next.t(`errors.${e.code}`, errorValues(message));
  }
  return message;
}

/**
 * The values of a server error's translation: its English message (the fallback,
 * and `{{message}}`), and the message's numbers in order as `{{n0}}`, `{{n1}}`…, so
 * a translation can say "40 hits are required" in its own words.
 */
export function errorValues(message: string): Record<string, string> {
  const numbers = message.match(/\d+/g) ?? [];
  return { defaultValue: message, message, ...Object.fromEntries(numbers.map((n, i) => [`n${i}`, n])) };
}

export { i18next };
