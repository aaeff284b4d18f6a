import { decode, Decoder, Encoder, encode, schema, t, type SchemaType } from '@colyseus/schema';
import { describe, expect, it } from 'vitest';
import { installFastStringDecoding } from '../../shared/protocol/schema-strings.ts';

const Texts = schema({ a: t.string(), b: t.string(), list: t.array('string'), byName: t.map('number'), n: t.number() }, 'Texts');
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
  const library = decode.string;
  installFastStringDecoding();

  // every header at its bounds (fixstr up to 31 bytes, str 8 up to 255, str 16 up to 65,535, str 32), all UTF-8 widths
  const samples = [
    '',
    'short',
    'x'.repeat(31),
    'x'.repeat(32),
    '0f3a5c2e-1111-2222-3333-444455556666',
    'x'.repeat(255),
    'x'.repeat(256),
    'x'.repeat(65_535),
    'x'.repeat(65_536),
    '\uFEFF'.padEnd(40, 'x'),
    repeat('ä', 300),
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
        s.byName.set(`key ${text}`, 1);
        s.n = 7;
      },
      (s) => {
        s.a = `${text}!`;
        s.list[0] = text.slice(0, Math.floor(text.length / 2));
        s.byName.set(`other ${text}`, 2);
      },
    );
    expect(client.a).toBe(`${text}!`);
    expect(client.a.length).toBe(text.length + 1);
    // the fields after a long string are read from the right offset
    expect(client.b).toBe('after');
    expect(client.n).toBe(7);
    expect(client.toJSON()).toEqual(server.toJSON());
  });

  // a byte that is not UTF-8 becomes U+FFFD with TextDecoder, where the library cuts the string short:
  // only the replacement passes, for each of the headers it handles
  it.each([32, 256, 65_536])('decodes a %i-byte string with TextDecoder', (bytes) => {
    const text = 'x'.repeat(bytes);
    const server = new Texts();
    server.a = text;
    server.b = 'after';
    const encoded = new Encoder(server).encodeAll().slice();
    const at = Buffer.from(encoded).indexOf(text);
    encoded[at + 5] = 0xff;
    const broken = new Texts();
    new Decoder(broken).decode(encoded);
    expect(broken.a).toBe(`${'x'.repeat(5)}\uFFFD${'x'.repeat(bytes - 6)}`);
    expect(broken.b).toBe('after');
  });

  it('reads plain arrays of bytes and short strings as the library does', () => {
    for (const text of ['', 'short', 'x'.repeat(31), 'x'.repeat(40), repeat('ä', 300)]) {
      const bytes: number[] = [];
      const written = { offset: 0 };
      encode.string(bytes as unknown as Uint8Array, text, written);
      const ours = { offset: 0 };
      const theirs = { offset: 0 };
      expect(decode.string(bytes, ours)).toBe(library(bytes, theirs));
      expect(ours.offset).toBe(theirs.offset);
      // and from a Uint8Array: the same text, the same end
      const fromBytes = { offset: 0 };
      expect(decode.string(Uint8Array.from(bytes), fromBytes)).toBe(text);
      expect(fromBytes.offset).toBe(written.offset);
    }
  });
});
