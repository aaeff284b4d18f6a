/**
 * `npm start` runs the server with the Node options of server/node-options.ts
 * (the load benchmark and `npm run cluster` import them; package.json cannot).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_OPTIONS } from '../../server/node-options.ts';

describe('the server\'s Node options', () => {
  it('are the ones `npm start` passes to node', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${SERVER_NODE_OPTIONS.join(' ')} scripts/start.ts`);
  });
});
