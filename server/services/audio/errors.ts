/**
 * Why an audio job failed, in words a catalogue editor can act on. `transient`
 * failures (network trouble, a timeout, a full disk) are retried with backoff;
 * the others (not audio, ffmpeg rejects the file, offset past the end) fail at once,
 * because trying again would give the same answer.
 */
export class AudioJobError extends Error {
  readonly transient: boolean;

  constructor(message: string, transient = false) {
    super(message);
    this.name = 'AudioJobError';
    this.transient = transient;
  }
}

/** A failure that may go away by itself (retried with backoff). */
export const transientError = (message: string): AudioJobError => new AudioJobError(message, true);
/** A failure that will not go away by retrying (fails the job at once). */
export const permanentError = (message: string): AudioJobError => new AudioJobError(message, false);

/** Node's error codes of file-system trouble that may pass (full disk, too many open files). */
const TRANSIENT_FS = new Set(['ENOSPC', 'EMFILE', 'ENFILE', 'EAGAIN', 'EBUSY', 'EIO']);

/** Turns anything thrown during a job into an {@link AudioJobError}. */
export function asJobError(err: unknown): AudioJobError {
  if (err instanceof AudioJobError) return err;
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  if (typeof code === 'string' && TRANSIENT_FS.has(code)) return transientError(`file system: ${message}`);
  return permanentError(`internal error: ${message}`);
}

/** "3 min 20 s", "2 h 5 min", "12.5 s": durations in failure reasons. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'unknown';
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h} h ${m} min`;
  return s > 0 ? `${m} min ${s} s` : `${m} min`;
}

/** Thrown when a job is cancelled (the worker stops, or the hit got a new source): not a failure of the hit. */
export class JobAborted extends Error {
  constructor() {
    super('the job was cancelled');
    this.name = 'JobAborted';
  }
}
