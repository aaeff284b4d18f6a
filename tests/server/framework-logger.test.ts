import { Writable } from 'node:stream';
import { setLogger } from '@colyseus/core/Logger';
import { RoomMessages } from '@colyseus/core/RoomMessages';
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

  it('room messages that are not MessagePack are broken frames too, not errors of the server', async () => {
    const { log, lines } = capture();
    // a quiet time far longer than the 100 frames take, also on a busy machine
    setLogger(frameworkLogger(log, 2000));
    try {
      // what Room hands to its messages for a ROOM_DATA frame: [13, type "x", bytes msgpackr cannot read]
      const messages = new RoomMessages({} as never);
      const client = { leave: () => undefined } as never;
      // the last ones nest their garbage 20 lists deep: V8's ten frames of trace are all msgpackr's
      const deep = (bad: number[]) => [13, 0xa1, 0x78, ...Array<number>(20).fill(0x91), ...bad];
      const frames = [[13, 0xa1, 0x78, 0xc1, 0xc1], [13, 0xa1, 0x78, 0x92, 0x01], [13, 0xa1, 0x78, 0xa5, 0x61], deep([0xd4, 0x05, 0x00]), deep([0x81, 0xc1, 0x01])];
      for (let i = 0; i < 100; i++) messages.onData(client, Buffer.from(frames[i % frames.length]!), { offset: 1 });
    } finally {
      setLogger(console);
    }
    expect(lines()).toEqual([{ level: 40, time: expect.any(Number), source: 'colyseus', msg: expect.stringContaining('a socket sent a broken frame and was closed: Error: Data read, but end of buffer not reached') }]);
    await new Promise((r) => setTimeout(r, 2050));
    expect(lines().at(-1)).toMatchObject({ level: 40, left_out: 99 });
    // msgpackr's message alone, thrown from elsewhere (the server's own unpacking), is still an error
    const framework = frameworkLogger(log, 100);
    framework.error('Error: Unexpected end of MessagePack data\n    at endOfMessagePackError (file:///x/node_modules/msgpackr/unpack.js:747:14)\n    at RedisPresence.onMessage (file:///x/presence.mjs:1:1)');
    expect(lines().at(-1)).toMatchObject({ level: 50 });
  });
});
