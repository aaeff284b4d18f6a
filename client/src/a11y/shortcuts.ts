import { useEffect, useLayoutEffect, useRef } from 'react';
import { i18next } from '../i18n.ts';
import { notify } from './notify.ts';

/**
 * Keyboard shortcuts (docs/product.md#screens): every one is Alt+Shift plus a key, so none
 * collides with typing or with a screen reader's own keys. A handled key never
 * reaches the browser (preventDefault), and neither does any key of the table
 * while Alt+Shift is held, even where no screen has registered it (Alt+Shift+I
 * would otherwise open a browser dialog in the lobby). A binding may be a
 * sequence of keys ("G S"); pressing them more than 1000 ms apart starts over.
 */

/** docs/product.md#limits: the longest pause between the keys of one sequence. */
export const KEY_SEQUENCE_TIMEOUT_MS = 1000;

export type ShortcutSection = 'lobby' | 'game';

export interface ShortcutDef<Id extends string = string> {
  id: Id;
  section: ShortcutSection;
  /** Alternatives; each is one key name, or several separated by spaces for a sequence. */
  keys: readonly string[];
}

/** The spec's table, in its order. Key names are those of {@link keyName}. i18n: `shortcuts.action.<id>`. */
export const SHORTCUTS = [
  { id: 'game_settings', section: 'game', keys: ['E'] },
  { id: 'join_game', section: 'game', keys: ['J'] },
  { id: 'leave_game', section: 'game', keys: ['Q'] },
  { id: 'create_local', section: 'lobby', keys: ['L'] },
  { id: 'create_private', section: 'lobby', keys: ['R'] },
  { id: 'create_public', section: 'lobby', keys: ['U'] },
  { id: 'play_hit', section: 'game', keys: ['H'] },
  { id: 'start_stop', section: 'game', keys: ['S'] },
  { id: 'skip_hit', section: 'game', keys: ['I'] },
  { id: 'confirm_yes', section: 'game', keys: ['Y'] },
  { id: 'confirm_no', section: 'game', keys: ['N'] },
  { id: 'submit_guess', section: 'game', keys: ['Enter'] },
  { id: 'next_slot', section: 'game', keys: ['ArrowDown'] },
  { id: 'previous_slot', section: 'game', keys: ['ArrowUp'] },
  { id: 'no_slot', section: 'game', keys: ['Backspace'] },
  { id: 'dispute_year', section: 'game', keys: ['D'] },
  // index 0..9 = player 1..10: "0 is player 10"
  { id: 'player_info', section: 'game', keys: ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'] },
] as const satisfies readonly ShortcutDef[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** What a handler learns: which alternative matched (for player_info: 0 = first player … 9 = tenth). */
export interface ShortcutTrigger {
  index: number;
  keys: string;
}
export type ShortcutHandler = (trigger: ShortcutTrigger) => void;

/** The subset of KeyboardEvent the matcher reads. */
export interface KeyEventLike {
  key: string;
  code: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  repeat?: boolean;
  isComposing?: boolean;
  preventDefault(): void;
  stopPropagation(): void;
}

/**
 * The key's name independent of what Alt and Shift did to it: a letter or digit
 * as printed (so Y and Z follow the keyboard layout), else the physical key
 * (Alt+Shift+U types "¨" on a Mac, Shift+1 types "!"), else the key's name.
 */
export function keyName(e: Pick<KeyEventLike, 'key' | 'code'>): string {
  if (/^[a-z0-9]$/i.test(e.key)) return e.key.toUpperCase();
  const letter = /^Key([A-Z])$/.exec(e.code);
  if (letter) return letter[1] as string;
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(e.code);
  if (digit) return digit[1] as string;
  if (e.code === 'NumpadEnter') return 'Enter';
  return e.key;
}

/**
 * A media query for devices without a precise pointer (no mouse, no trackpad):
 * phones and tablets used by touch, which almost never have a keyboard either.
 * Visible key hints are hidden there; `aria-keyshortcuts` keeps naming them.
 */
export const NO_KEYBOARD_HINTS = '@media not (any-pointer: fine)';

/** "Alt+Shift+U", "Alt+Shift+G, S" for a sequence; `label` names each key (translated arrow names). */
export function formatKeys(keys: string, label: (key: string) => string = (key) => key): string {
  return `Alt+Shift+${keys.split(' ').map(label).join(', ')}`;
}

const MODIFIERS = new Set(['Alt', 'Shift', 'Control', 'Meta', 'AltGraph', 'OS']);

export interface ShortcutMatcher {
  /** Returns true when the event was a shortcut key (it has then been prevented). */
  handle(e: KeyEventLike): boolean;
}

/**
 * Matches key events against `defs` and calls `handlerFor(id)`'s handler.
 * Pure apart from the events it prevents, so tests drive it with fake events.
 */
export function createShortcutMatcher<Id extends string>(
  defs: readonly ShortcutDef<Id>[],
  handlerFor: (id: Id) => ShortcutHandler | undefined,
  options: { timeoutMs?: number; now?: () => number } = {},
): ShortcutMatcher {
  const timeoutMs = options.timeoutMs ?? KEY_SEQUENCE_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  const sequences = defs.flatMap((def) => def.keys.map((keys, index) => ({ def, index, keys, steps: keys.split(' ') })));
  let buffer: string[] = [];
  let lastAt = -Infinity;

  const exact = (steps: readonly string[]) => sequences.find((s) => s.steps.length === steps.length && s.steps.every((k, i) => k === steps[i]));
  const isPrefix = (steps: readonly string[]) => sequences.some((s) => s.steps.length > steps.length && steps.every((k, i) => k === s.steps[i]));

  return {
    handle(e) {
      if (!e.altKey || !e.shiftKey || e.ctrlKey || e.metaKey || e.isComposing) return false;
      const name = keyName(e);
      if (MODIFIERS.has(name)) return false;
      const t = now();
      if (t - lastAt > timeoutMs) buffer = [];
      lastAt = t;
      let steps = [...buffer, name];
      // a key that continues no sequence may still start one
      if (!exact(steps) && !isPrefix(steps)) steps = [name];
      const hit = exact(steps);
      if (!hit && !isPrefix(steps)) {
        buffer = [];
        return false;
      }
      e.preventDefault();
      e.stopPropagation();
      if (!hit) {
        buffer = steps;
        return true;
      }
      buffer = [];
      // holding the keys down must not fire the action over and over
      if (e.repeat) return true;
      handlerFor(hit.def.id)?.({ index: hit.index, keys: hit.keys });
      return true;
    },
  };
}

// ---------------------------------------------------------------------------
// the app-wide listener and the hook screens use

type Handlers = Partial<Record<ShortcutId, ShortcutHandler>>;
const registrations: { current: Handlers }[] = [];

/**
 * The most recently registered handler for `id` wins (a screen mounted over another). Only
 * screens register: while a modal dialog is open none of them acts (see installShortcuts).
 */
function registeredHandler(id: ShortcutId): ShortcutHandler | undefined {
  for (let i = registrations.length - 1; i >= 0; i--) {
    const h = registrations[i]?.current[id];
    if (h) return h;
  }
  return undefined;
}

let installed: (() => void) | null = null;

/**
 * An open modal dialog (Chakra's dialogs mark their content so; one that is closing, still in
 * the page for its animation, says data-state="closed"): the page behind it is out of reach.
 */
export const modalDialogOpen = (doc: Document = document): boolean =>
  doc.querySelector('[role="dialog"][aria-modal="true"][data-state="open"], [role="alertdialog"][aria-modal="true"][data-state="open"]') !== null;

const sayCloseDialogFirst = (): void => {
  notify.notification(i18next.t('shortcuts.close_dialog_first'), { interrupt: true, toast: false });
};

/**
 * Installs the one keydown listener (capture phase, before any widget sees the key). Idempotent.
 * While a modal dialog is open the screens' shortcuts do not act on the page behind it (the
 * dialog stays open and its user would not see what changed); the key is still kept from the
 * browser, and the user hears why nothing happened.
 */
export function installShortcuts(target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  if (installed) return installed;
  const matcher = createShortcutMatcher<ShortcutId>(SHORTCUTS, (id) => {
    const handler = registeredHandler(id);
    return handler && modalDialogOpen() ? sayCloseDialogFirst : handler;
  });
  const listener = (e: Event): void => {
    matcher.handle(e as KeyboardEvent);
  };
  target.addEventListener('keydown', listener, true);
  installed = () => {
    target.removeEventListener('keydown', listener, true);
    installed = null;
  };
  return installed;
}

/**
 * Registers shortcut handlers while the component is mounted (and `enabled`).
 * The handlers may change on every render; the latest ones are called.
 */
export function useShortcuts(handlers: Handlers, enabled = true): void {
  const ref = useRef<Handlers>(handlers);
  useLayoutEffect(() => {
    ref.current = handlers;
  });
  useEffect(() => {
    if (!enabled) return;
    installShortcuts();
    const entry = { get current() { return ref.current; } };
    registrations.push(entry);
    return () => {
      const at = registrations.indexOf(entry);
      if (at >= 0) registrations.splice(at, 1);
    };
  }, [enabled]);
}
