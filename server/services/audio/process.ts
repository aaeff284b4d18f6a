import { spawn } from 'node:child_process';

/**
 * Runs the pipeline's external commands (ffmpeg, yt-dlp) as child processes with
 * argument arrays (never a shell), a time limit and cancellation. All audio work
 * happens in these children, so the server's event loop only waits on pipes.
 */

/** How a child process ended. */
export interface RunResult {
  /** Exit code; null when the process was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Standard output (at most `stdoutLimit` characters; the start is kept). */
  stdout: string;
  /** The end of standard error (at most `stderrLimit` characters). */
  stderr: string;
  /** The time limit ran out and the process (group) was killed. */
  timedOut: boolean;
  /** `signal` was aborted and the process (group) was killed. */
  aborted: boolean;
}

/** Options of {@link runProcess}. */
export interface RunOptions {
  /** Kill the process after this many ms (0 = no limit). */
  timeoutMs: number;
  /** Kills the process when aborted. */
  signal?: AbortSignal;
  /** Characters of stdout to keep (default 64 KiB). */
  stdoutLimit?: number;
  /** Characters of stderr to keep, from the end (default 16 KiB): ffmpeg prints its summaries last. */
  stderrLimit?: number;
  /** How long to wait for the pipes to close after the process exited (default 2 s). */
  closeGraceMs?: number;
}

/**
 * Runs `cmd args` and resolves when it has ended (never rejects for a non-zero
 * exit, a timeout or an abort: see the result). Rejects only when the command
 * cannot be started (e.g. ENOENT), with the spawn error.
 *
 * The child leads its own process group, so a timeout kills what it started too
 * (yt-dlp runs ffmpeg; a shell script runs `sleep`): killing only the leader would
 * leave a grandchild holding the pipes open and the job stuck.
 */
export function runProcess(cmd: string, args: readonly string[], options: RunOptions): Promise<RunResult> {
  const stdoutLimit = options.stdoutLimit ?? 65_536;
  const stderrLimit = options.stderrLimit ?? 16_384;
  const closeGraceMs = options.closeGraceMs ?? 2000;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      resolve({ code: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: true });
      return;
    }
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, windowsHide: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let graceTimer: NodeJS.Timeout | undefined;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already; fall back to the leader alone
        try {
          child.kill('SIGKILL');
        } catch {
          // already dead
        }
      }
    };
    const timer = options.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), killGroup()), options.timeoutMs) : undefined;
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ code: exited?.code ?? null, signal: exited?.signal ?? null, stdout, stderr, timedOut, aborted });
    };

    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      if (stdout.length < stdoutLimit) stdout += chunk.slice(0, stdoutLimit - stdout.length);
    });
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > stderrLimit * 2) stderr = stderr.slice(-stderrLimit);
    });
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      // A grandchild that outlives the leader keeps the pipes open: end it, then stop waiting.
      graceTimer = setTimeout(() => {
        killGroup();
        child.stdout.destroy();
        child.stderr.destroy();
        stderr = stderr.slice(-stderrLimit);
        finish();
      }, closeGraceMs);
    });
    child.on('close', (code, signal) => {
      exited ??= { code, signal };
      stderr = stderr.slice(-stderrLimit);
      finish();
    });
  });
}

/** The last non-empty lines of a process's stderr, joined, for a readable reason. */
export function lastLines(text: string, count = 1, maxChars = 300): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const tail = lines.slice(-count).join(' | ');
  return tail.length > maxChars ? `${tail.slice(0, maxChars - 1)}…` : tail;
}
