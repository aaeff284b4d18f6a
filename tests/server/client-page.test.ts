import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lowPriorityModuleScripts } from '../../server/app.ts';
import { bootServer, type TestServer } from './harness.ts';

/**
 * The client's page over real HTTP: index.html for every client-side route,
 * with its module scripts at low fetch priority (budget P10: the static shell
 * paints from the page, its style sheet and boot.js, without waiting on the app).
 */

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <script src="/boot.js"></script>
    <script type="module" crossorigin src="/assets/runtime-abc.js"></script>
    <script type="module" crossorigin src="/assets/app-abc.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/app-abc.css">
  </head>
  <body><div id="root"><main class="hl-splash">Hitline</main></div></body>
</html>
`;

let t: TestServer;
let client: string;
beforeAll(async () => {
  t = await bootServer();
  // the harness points CLIENT_DIR at <dir>/no-client
  client = join(t.dir, 'no-client');
});
afterAll(async () => {
  await t?.stop();
});

describe('the client page', () => {
  it('answers 503 until the client is built', async () => {
    rmSync(client, { recursive: true, force: true });
    const r = await fetch(`${t.base}/`);
    expect(r.status).toBe(503);
    expect(await r.text()).toMatch(/npm run build/);
  });

  it('is index.html for every client route, its module scripts at low priority, the rest untouched', async () => {
    mkdirSync(client, { recursive: true });
    writeFileSync(join(client, 'index.html'), PAGE);
    for (const path of ['/', '/game/AbCd1234', '/hits/status', '/login?next=%2F']) {
      const r = await fetch(`${t.base}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.headers.get('cache-control')).toBe('no-cache');
      const html = await r.text();
      expect(html).toContain('<script fetchpriority="low" type="module" crossorigin src="/assets/runtime-abc.js"></script>');
      expect(html).toContain('<script fetchpriority="low" type="module" crossorigin src="/assets/app-abc.js"></script>');
      expect(html).toContain('<script src="/boot.js"></script>');
      expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/app-abc.css">');
      expect(html).toContain('<div id="root"><main class="hl-splash">Hitline</main></div>');
    }
  });

  it('revalidates: 304 for the same page, the new page once the file changes', async () => {
    const first = await fetch(`${t.base}/`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // (fetch would add `Cache-Control: no-cache` to a conditional request, which disables revalidation)
    const revalidate = { 'if-none-match': etag!, 'cache-control': 'max-age=0' };
    expect((await fetch(`${t.base}/`, { headers: revalidate })).status).toBe(304);
    writeFileSync(join(client, 'index.html'), PAGE.replace('app-abc.js', 'app-def.js'));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(client, 'index.html'), later, later);
    const changed = await fetch(`${t.base}/`, { headers: revalidate });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toContain('<script fetchpriority="low" type="module" crossorigin src="/assets/app-def.js">');
  });

  it('leaves the API and real files alone', async () => {
    expect((await fetch(`${t.base}/api/nope`)).status).toBe(404);
    writeFileSync(join(client, 'boot.js'), '/* boot */');
    const r = await fetch(`${t.base}/boot.js`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('/* boot */');
  });
});

describe('lowPriorityModuleScripts', () => {
  it('marks module scripts only, and never overrides a priority the page sets', () => {
    expect(lowPriorityModuleScripts('<script type="module" src="/a.js"></script><script src="/b.js"></script><script type=module>x</script>')).toBe(
      '<script fetchpriority="low" type="module" src="/a.js"></script><script src="/b.js"></script><script fetchpriority="low" type=module>x</script>',
    );
    expect(lowPriorityModuleScripts('<script type="module" fetchpriority="high" src="/a.js"></script>')).toBe('<script type="module" fetchpriority="high" src="/a.js"></script>');
    expect(lowPriorityModuleScripts('<SCRIPT TYPE="module" src="/a.js"></SCRIPT>')).toBe('<script fetchpriority="low" TYPE="module" src="/a.js"></SCRIPT>');
  });
});
