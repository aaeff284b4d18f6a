import { decode } from '@colyseus/schema';

/**
 * Faster decoding of long strings in room state patches, for every client of the
 * game rooms (the web client, the load benchmark's bots).
 *
 * @colyseus/schema 5 decodes a string by appending its characters one by one, so a
 * player's timeline (`hits`, a JSON string of up to a few kB) arrives as a rope of
 * one heap object per character: about 32 bytes per byte received, kept until the
 * string is first read whole. A load generator's 2,400 clients held 70 MB of such
 * ropes (2.2 million objects), and a phone decodes every patch that way. Strings of
 * 32 bytes or more (the str 8/16/32 headers: player ids, timelines, the clue) are
 * decoded with one TextDecoder call instead, into a flat string: 75 ns for a
 * 36-byte id against 250 ns (Node 24). Shorter ones (a fixstr: state names,
 * short player names) keep the library's loop, which is quicker below about 16
 * bytes and costs little up to 31.
 *
 * The library reads its decoders from the exported `decode` table at each field,
 * so replacing `decode.string` there reaches the SDK's decoder. The wire format
 * (MessagePack-like str headers, lengths little-endian) is read with the
 * library's own decoders. Bytes that are not UTF-8 (the server never sends any)
 * become U+FFFD where the library would log an error and cut the string short.
 */
// a leading U+FEFF is a character of the string, as the library decodes it, not a byte-order mark
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const libraryString = decode.string;
type Bytes = Parameters<typeof libraryString>[0];
type Iterator = Parameters<typeof libraryString>[1];

function string(bytes: Bytes, it: Iterator): string {
  const prefix = bytes[it.offset];
  // str 8, str 16, str 32 (a fixstr is under 32 bytes); the SDK passes bytes, the library also takes plain arrays
  if ((prefix !== 0xd9 && prefix !== 0xda && prefix !== 0xdb) || !(bytes instanceof Uint8Array)) return libraryString(bytes, it);
  it.offset++;
  const length = prefix === 0xd9 ? decode.uint8(bytes, it) : prefix === 0xda ? decode.uint16(bytes, it) : decode.uint32(bytes, it);
  // the library's bound: a length past the end reads what is there
  const end = Math.min(it.offset + length, bytes.length);
  const text = utf8.decode(bytes.subarray(it.offset, end));
  it.offset = end;
  return text;
}

let installed = false;

/** Installs the long-string decoder (once; later calls do nothing). */
export function installFastStringDecoding(): void {
  if (installed) return;
  installed = true;
  decode.string = string;
}
