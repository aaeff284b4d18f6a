/**
 * Runs every tests/e2e/*.e2e.ts file, one after the other, each in its own Node
 * process (its own server and browsers, and a crash in one file cannot take
 * the others with it). Expects a client build (`npm run build`) and Chromium
 * (`node tests/e2e/ensure-chromium.ts`). Exits non-zero when any test failed;
 * the last line is always "N passed, M failed".
 *
 *   node tests/e2e/run.ts [words in file names...]    (E2E_GREP=words picks tests)
 *
 * Artifacts (screenshots, axe reports, failure screenshots) go to
 * test-results/e2e/, emptied first when all files run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileReport } from './harness.ts';

/**
 * A file that runs longer than this is killed and counted as failed: a guard
 * against a hung browser or server (each test has its own, shorter limit).
 * game.e2e.ts takes about 5 minutes on a quiet machine and over 10 on this
 * shared 2-core one when it is busy.
 */
const FILE_TIMEOUT_MS = 20 * 60_000;

const dir = import.meta.dirname;
/** harness.ts's RESULTS_DIR (not imported: that would load the server and the browser driver into this process). */
const RESULTS_DIR = join(dir, '..', '..', 'test-results', 'e2e');
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.e2e.ts') && (filters.length === 0 || filters.some((w) => f.includes(w))))
  .sort();
const scratch = mkdtempSync(join(tmpdir(), 'hitline-e2e-run-'));

function runFile(file: string, report: string): Promise<{ code: number | null; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(dir, file)], { stdio: 'inherit', env: { ...process.env, E2E_REPORT: report } });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut });
    });
  });
}

// A full run starts from an empty artifacts folder, so no screenshot of an earlier failure lingers.
if (filters.length === 0 && !process.env.E2E_GREP) rmSync(RESULTS_DIR, { recursive: true, force: true });

const t0 = Date.now();
let passed = 0;
let failed = 0;
const lines: string[] = [];
try {
  for (const file of files) {
    const report = join(scratch, `${file}.json`);
    const started = Date.now();
    const { code, timedOut } = await runFile(file, report);
    const secs = ((Date.now() - started) / 1000).toFixed(1);
    const results = existsSync(report) ? (JSON.parse(readFileSync(report, 'utf8')) as FileReport).results : null;
    if (!results) {
      // crashed (or was killed) before it could report: the whole file counts as one failure
      failed++;
      lines.push(`  ✗ ${file}: ${timedOut ? `killed after ${FILE_TIMEOUT_MS / 60_000} min` : `exited with ${code}`} without a report (${secs} s)`);
      continue;
    }
    const bad = results.filter((r) => !r.ok);
    passed += results.length - bad.length;
    failed += bad.length;
    if (results.length === 0 && process.env.E2E_GREP) {
      lines.push(`  - ${file}: no test matches E2E_GREP`);
      continue;
    }
    if (results.length === 0) {
      failed++;
      lines.push(`  ✗ ${file}: no tests ran`);
    } else if (code !== 0 && bad.length === 0) {
      failed++;
      lines.push(`  ✗ ${file}: all tests passed but it exited with ${code}`);
    }
    lines.push(`  ${bad.length ? '✗' : '✓'} ${file}: ${results.length - bad.length}/${results.length} passed (${secs} s)`);
    for (const r of bad) lines.push(`      ✗ ${r.name}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (files.length === 0) {
  failed++;
  lines.push(`  ✗ no *.e2e.ts files${filters.length ? ` matching ${filters.join(', ')}` : ''} in ${dir}`);
}
console.log(`\nEnd-to-end tests (${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in test-results/e2e/):`);
for (const line of lines) console.log(line);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
