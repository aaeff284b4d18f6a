/// <reference types="vite/client" />

/** The package version, injected by Vite's `define` (client/vite.config.ts, vitest.config.ts). */
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** Where the source code is published (the GPL asks for a link); the menu entry is hidden when unset. */
  readonly VITE_SOURCE_URL?: string;
  /** Where to report problems. */
  readonly VITE_ISSUES_URL?: string;
  /** The copyright holder's page. */
  readonly VITE_OWNER_URL?: string;
}
