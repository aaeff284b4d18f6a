import { Decoder, Encoder, schema, t, type SchemaType } from '@colyseus/schema';
import { describe, expect, it } from 'vitest';
import { installFastStringDecoding } from '../../shared/protocol/schema-strings.ts';

const Texts = schema({ a: t.string(), b: t.string(), list: t.array('string'), n: t.number() }, 'Texts');
type Texts = SchemaType<typeof Texts>;

/** Sends `server`'s full state, then its changes, to a fresh client state; returns the client's. */
function roundTrip(fill: (s: Texts) => void, change?: (s: Texts) => void): { client: Texts; server: Texts } {
  const server = new Texts();
  fill(server);
  const encoder = new Encoder(server);
  const client = new Texts();
  const decoder = new Decoder(client);
  decoder.decode(encoder.encodeAll());
  encoder.discardChanges();
  if (change) {
    change(server);
    decoder.decode(encoder.encode());
    encoder.discardChanges();
  }
  return { client, server };
}

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');
const repeat = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / utf8Length(unit)));

Encoder.BUFFER_SIZE = 256 * 1024;

describe('long strings in room state patches', () => {
  installFastStringDecoding();

  // every header (fixstr up to 31 bytes, str 8, str 16, str 32), all UTF-8 widths
  const samples = [
    '',
    'short',
    'x'.repeat(31),
    'x'.repeat(32),
    '0f3a5c2e-1111-2222-3333-444455556666',
    repeat('ä', 255),
    repeat('ä', 257),
    repeat('Motörhead – Ace of Spades 🎸 ', 200),
    repeat('€😀a', 40_000),
    repeat('{"id":12,"title":"Ça plane pour moi","year":1977},', 70_000),
  ];

  it.each(samples.map((s) => [utf8Length(s), s] as const))('%i bytes arrive unchanged, in the full state and in a patch', (_bytes, text) => {
    const { client, server } = roundTrip(
      (s) => {
        s.a = text;
        s.b = 'after';
        s.list.push(text, 'tail');
        s.n = 7;
      },
      (s) => {
        s.a = `${text}!`;
        s.list[0] = text.slice(0, Math.floor(text.length / 2));
      },
    );
    expect(client.a).toBe(`${text}!`);
    // the fields after a long string are read from the right offset
    expect(client.b).toBe('after');
    expect(client.n).toBe(7);
    expect(client.toJSON()).toEqual(server.toJSON());
  });

  it('decodes strings of 32 bytes or more with TextDecoder (bytes that are not UTF-8 become U+FFFD, where the library cut the string short)', () => {
    const text = 'x'.repeat(40);
    // the state's bytes with one broken in the middle of the string, fed through the real decoder
    const server = new Texts();
    server.a = text;
    server.b = 'after';
    const bytes = new Encoder(server).encodeAll().slice();
    const at = Buffer.from(bytes).indexOf(text);
    bytes[at + 5] = 0xff;
    const broken = new Texts();
    new Decoder(broken).decode(bytes);
    expect(broken.a).toBe(`${'x'.repeat(5)}\uFFFD${'x'.repeat(34)}`);
    expect(broken.b).toBe('after');
  });
});
