import { lazy, startTransition, Suspense, useEffect, useState, type ReactNode } from 'react';
import { loadNamespace } from '../i18n.ts';
import { useNotifications } from '../stores/notifications.ts';
import { useSettings } from '../stores/settings.ts';
import { useUi } from '../stores/ui.ts';

/*
 * The shell's dialogs load on demand (budget P9: the dialog machinery, slider,
 * tabs and radio groups are not needed for the first paint) and are fetched
 * in the background right after it, so they open instantly and still work
 * when the network drops later (the error dialog above all).
 */
const load = {
  welcome: () => import('./WelcomeDialog.tsx'),
  settings: () => import('./SettingsDialog.tsx'),
  shortcuts: () => import('./ShortcutsDialog.tsx'),
  deleteAccount: () => import('./DeleteAccountDialog.tsx'),
  // with its words (the people namespace)
  rename: () => Promise.all([import('./RenameDialog.tsx'), loadNamespace('people')]).then(([m]) => m),
  error: () => import('./ErrorDialog.tsx'),
};
const WelcomeDialog = lazy(() => load.welcome().then((m) => ({ default: m.WelcomeDialog })));
const SettingsDialog = lazy(() => load.settings().then((m) => ({ default: m.SettingsDialog })));
const ShortcutsDialog = lazy(() => load.shortcuts().then((m) => ({ default: m.ShortcutsDialog })));
const DeleteAccountDialog = lazy(() => load.deleteAccount().then((m) => ({ default: m.DeleteAccountDialog })));
const RenameDialog = lazy(() => load.rename().then((m) => ({ default: m.RenameDialog })));
const ErrorDialog = lazy(() => load.error().then((m) => ({ default: m.ErrorDialog })));

/** Mounts `children` from the first time `when` holds, and keeps them (their closing animation needs it). */
function Deferred({ when, children }: { when: boolean; children: ReactNode }) {
  const [seen, setSeen] = useState(when);
  if (when && !seen) setSeen(true);
  return seen ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * Runs `steps` one after the other, each in an idle period of its own (at the
 * latest `timeout` ms after the previous one), so that none adds to another's
 * task (budget P10). Returns the cancel function.
 */
function inIdleSteps(steps: readonly (() => void)[], timeout: number): () => void {
  let cancel = (): void => undefined;
  const run = (at: number): void => {
    const step = steps[at];
    if (!step) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => (step(), run(at + 1)), { timeout });
      cancel = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(() => (step(), run(at + 1)), 50);
      cancel = () => window.clearTimeout(id);
    }
  };
  run(0);
  return () => cancel();
}

export function ShellDialogs() {
  const welcomeWanted = useSettings((s) => !s.welcome);
  const dialog = useUi((s) => s.dialog);
  const error = useNotifications((s) => s.errorMessage !== null);
  // On a first visit the welcome dialog opens once the page has painted and the
  // browser is idle, not in the same burst of work as the page (budget P10).
  const [settled, setSettled] = useState(false);
  const welcome = welcomeWanted && settled;

  useEffect(
    () =>
      inIdleSteps(
        [
          () => startTransition(() => setSettled(true)),
          ...Object.values(load).map((l) => () => void l().catch(() => undefined)),
        ],
        1000,
      ),
    [],
  );

  return (
    <>
      <Deferred when={welcome}>
        <WelcomeDialog />
      </Deferred>
      <Deferred when={dialog === 'settings'}>
        <SettingsDialog />
      </Deferred>
      <Deferred when={dialog === 'shortcuts'}>
        <ShortcutsDialog />
      </Deferred>
      <Deferred when={dialog === 'delete_account'}>
        <DeleteAccountDialog />
      </Deferred>
      <Deferred when={dialog === 'rename'}>
        <RenameDialog />
      </Deferred>
      <Deferred when={error}>
        <ErrorDialog />
      </Deferred>
    </>
  );
}
