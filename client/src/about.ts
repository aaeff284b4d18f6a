/**
 * Facts the navigation bar shows about the product (docs/product.md#screens): version,
 * copyright years, and the source, ownership and issue links. The links are
 * deployment facts, set at build time (`VITE_SOURCE_URL=… npm run build`).
 */

export const APP_VERSION: string = __APP_VERSION__;

/** docs/product.md#limits: the copyright line starts in 2024. */
export const COPYRIGHT_START_YEAR = 2024;

const url = (value: string | undefined): string | undefined => (value && /^https?:\/\//.test(value) ? value : undefined);

export const SOURCE_URL = url(import.meta.env.VITE_SOURCE_URL);
export const ISSUES_URL = url(import.meta.env.VITE_ISSUES_URL);
export const OWNER_URL = url(import.meta.env.VITE_OWNER_URL);

/** "2024–2026" (just "2024" during 2024). */
export function copyrightYears(now: Date = new Date()): string {
  const year = now.getFullYear();
  return year > COPYRIGHT_START_YEAR ? `${COPYRIGHT_START_YEAR}–${year}` : String(COPYRIGHT_START_YEAR);
}
