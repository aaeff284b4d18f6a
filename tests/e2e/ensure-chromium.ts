/**
 * Makes sure Debian's Chromium is there for the end-to-end tests: does nothing
 * when `/usr/bin/chromium` exists, else installs the `chromium` package with
 * apt-get (CI runs `npm test` as root on a fresh Debian machine). Playwright's
 * own browser downloads are not used: they are not in Debian's archive and
 * bring their own copies of the system libraries.
 *
 *   node tests/e2e/ensure-chromium.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

function run(cmd: string, args: readonly string[]): boolean {
  console.log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (r.error) console.error(`${cmd}: ${r.error.message}`);
  return r.status === 0;
}

function fail(message: string): never {
  console.error(`\nCannot run the end-to-end tests: ${message}\n` + `Install Debian's Chromium yourself (as root: apt-get install chromium) so that ${CHROMIUM_PATH} exists.`);
  process.exit(1);
}

/** Returns the browser's version line once it is installed; exits with a clear message when it cannot be. */
const EMOJI_FONT = '/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf';

export function ensureChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    if (process.platform !== 'linux') fail(`${CHROMIUM_PATH} is missing and installing it needs Debian's apt-get (this is ${process.platform}).`);
    if (!existsSync('/usr/bin/apt-get')) fail(`${CHROMIUM_PATH} is missing and there is no apt-get to install it with.`);
    if (process.getuid?.() !== 0) fail(`${CHROMIUM_PATH} is missing and installing it needs root (apt-get runs as uid ${process.getuid?.()}).`);
    console.log(`${CHROMIUM_PATH} is missing: installing Debian's chromium package.`);
    if (!run('apt-get', ['update'])) fail('apt-get update failed (no network or no package sources?).');
    // with its recommended packages: they bring the fonts (fonts-liberation) the screenshots need
    if (!run('apt-get', ['install', '-y', 'chromium'])) fail('apt-get install chromium failed.');
    if (!existsSync(CHROMIUM_PATH)) fail(`the chromium package installed, but ${CHROMIUM_PATH} is still missing.`);
  }
  // players' emoji avatars: without a colour emoji font the screenshots show empty boxes where phones show faces
  if (!existsSync(EMOJI_FONT)) {
    if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get') && (run('apt-get', ['install', '-y', 'fonts-noto-color-emoji']) || (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'fonts-noto-color-emoji'])))) {
      console.log('installed fonts-noto-color-emoji for the players\' emoji');
    } else {
      console.warn(`note: ${EMOJI_FONT} is missing (apt-get install fonts-noto-color-emoji, as root): emoji show as boxes in the screenshots`);
    }
  }
  // The Debian launcher script prints shell noise on stderr on some machines; only stdout matters.
  const version = spawnSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) fail(`${CHROMIUM_PATH} --version failed: ${version.stderr || version.error?.message}`);
  return version.stdout.trim();
}

if (import.meta.main) console.log(ensureChromium());
