import { create } from 'zustand';
import type { PackPayload, ProcessHits } from '../../../shared/protocol/catalogue.ts';
import { listPacks } from '../net/catalogue.ts';
import { onGlobalEvent } from '../net/events.ts';
import { notify } from '../a11y/notify.ts';

/**
 * What the shell shows of the catalogue: the packs with their hit counts and
 * the hits in them (the welcome dialog's totals), and the audio pipeline's
 * progress (`process_hits`, the navigation bar's download indicator). The
 * catalogue screens extend it.
 */

export interface CatalogueState {
  packs: PackPayload[];
  /** Hits in any pack, each counted once (0 until the packs are loaded). */
  packedHits: number;
  /** The pack list has been loaded at least once. */
  packsLoaded: boolean;
  packsError: unknown;
  /** Hit-download progress from the global stream; null until its first event. */
  progress: ProcessHits | null;
  loadPacks(): Promise<void>;
  setProgress(progress: ProcessHits): void;
}

let loading: Promise<void> | null = null;

export const useCatalogue = create<CatalogueState>()((set) => ({
  packs: [],
  packedHits: 0,
  packsLoaded: false,
  packsError: null,
  progress: null,

  loadPacks() {
    loading ??= (async () => {
      try {
        const { packs, total } = await listPacks();
        set({ packs, packedHits: total, packsLoaded: true, packsError: null });
      } catch (packsError) {
        set({ packsError });
      } finally {
        loading = null;
      }
    })();
    return loading;
  },

  setProgress(progress) {
    set({ progress });
  },
}));

/** The download indicator's state: busy while anything downloads or processes. */
export const hitStatus = (progress: ProcessHits | null): 'processing' | 'finished' =>
  progress && (progress.downloading > 0 || progress.processing > 0) ? 'processing' : 'finished';

/** Wires the store to the global stream: progress updates, and a pack reload when the catalogue changes. */
export function connectCatalogueToEvents(): () => void {
  const offs = [
    onGlobalEvent('process_hits', (p) => {
      const was = useCatalogue.getState().progress;
      useCatalogue.getState().setProgress(p);
      // the hits progress update of docs/product.md#states: said when downloading or processing starts or ends
      // (not at every hit, and not over a running game, whose news matters more)
      if (was && hitStatus(was) !== hitStatus(p) && !window.location.pathname.startsWith('/game/')) notify.hitsProgress(p);
    }),
    onGlobalEvent('hits_changed', () => {
      if (useCatalogue.getState().packsLoaded) void useCatalogue.getState().loadPacks();
    }),
  ];
  return () => offs.forEach((off) => off());
}
