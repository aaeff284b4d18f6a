import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { frameworkLogger } from '../../server/logger.ts';

function capture(): { log: pino.Logger; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const log = pino({ level: 'info', base: undefined }, sink);
  return { log, lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('Colyseus messages in the server log', () => {
  it('a broken frame is one warning line; those in the quiet time after it are counted in one more line when it ends', async () => {
    const { log, lines } = capture();
    const framework = frameworkLogger(log, 100);
    const err = new RangeError('Max payload size exceeded');
    for (let i = 0; i < 4; i++) framework.error(`${err.message}\n${err.stack}`);
    expect(lines()).toEqual([{ level: 40, time: expect.any(Number), source: 'colyseus', msg: 'a socket sent a broken frame and was closed: Max payload size exceeded' }]);
    await new Promise((r) => setTimeout(r, 150));
    expect(lines().at(-1)).toMatchObject({ level: 40, left_out: 3, msg: 'sockets sent 3 more broken frames in 0.1 s' });
    // any other error stays an error, whole
    framework.error('onMessage failed', new Error('boom'));
    expect(lines().at(-1)).toMatchObject({ level: 50, source: 'colyseus', msg: expect.stringContaining('onMessage failed Error: boom') });
  });
});
