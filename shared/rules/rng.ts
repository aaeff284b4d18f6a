/**
 * The engine's random streams. A game holds the state of each stream as plain data,
 * so a stored game and its action list always replay to the same game, and nothing
 * here touches Math.random or a clock.
 *
 * A stream is the ChaCha20 keystream (RFC 8439) of a 256-bit key that the server
 * draws from `crypto` when the game is created: a cryptographically strong
 * generator, so a spectator who sees every dealt card still cannot compute the
 * next ones (a 32-bit generator could be searched seed by seed). The state is the
 * key and the number of 32-bit words used so far; it lives only in the server's
 * storage, never in a view (README, "Security").
 *
 * Games stored before these streams existed hold a uint32 (mulberry32) state; it
 * is kept as it was so that such a game still replays exactly after an upgrade.
 */

/** A stream's state: the key (64 hex digits) and how many 32-bit words it has given. */
export interface RngState {
  key: string;
  at: number;
}

/** Key strings of 64 hex digits (256 bits); at least 128 bits are required, 256 are drawn. */
const KEY_HEX = /^[0-9a-f]{64}$/;

/** A fresh stream from a 256-bit key given as 64 lowercase hex digits (the server draws it with crypto). */
export function streamFrom(key: string): RngState {
  if (!KEY_HEX.test(key)) throw new Error('an engine stream needs a key of 64 lowercase hex digits (256 bits)');
  return { key, at: 0 };
}

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574] as const;

function quarter(x: Uint32Array, a: number, b: number, c: number, d: number): void {
  let xa = x[a] as number, xb = x[b] as number, xc = x[c] as number, xd = x[d] as number;
  xa = (xa + xb) | 0; xd ^= xa; xd = (xd << 16) | (xd >>> 16);
  xc = (xc + xd) | 0; xb ^= xc; xb = (xb << 12) | (xb >>> 20);
  xa = (xa + xb) | 0; xd ^= xa; xd = (xd << 8) | (xd >>> 24);
  xc = (xc + xd) | 0; xb ^= xc; xb = (xb << 7) | (xb >>> 25);
  x[a] = xa; x[b] = xb; x[c] = xc; x[d] = xd;
}

/** One ChaCha20 block (16 words) for `key` (8 words, little-endian) at block `counter`, nonce 0. */
export function chachaBlock(key: Uint32Array, counter: number, out: Uint32Array): void {
  const input = new Uint32Array(16);
  input.set(SIGMA, 0);
  input.set(key, 4);
  input[12] = counter >>> 0;
  // the nonce's first word carries the counter's high bits: a stream longer than 2^32 blocks stays unique
  input[13] = Math.floor(counter / 2 ** 32) >>> 0;
  out.set(input);
  for (let i = 0; i < 10; i++) {
    quarter(out, 0, 4, 8, 12);
    quarter(out, 1, 5, 9, 13);
    quarter(out, 2, 6, 10, 14);
    quarter(out, 3, 7, 11, 15);
    quarter(out, 0, 5, 10, 15);
    quarter(out, 1, 6, 11, 12);
    quarter(out, 2, 7, 8, 13);
    quarter(out, 3, 4, 9, 14);
  }
  for (let i = 0; i < 16; i++) out[i] = ((out[i] as number) + (input[i] as number)) >>> 0;
}

/** The key's 8 words, little-endian as RFC 8439 reads the key bytes. */
function keyWords(hex: string): Uint32Array {
  const words = new Uint32Array(8);
  for (let i = 0; i < 8; i++) {
    let w = 0;
    for (let b = 3; b >= 0; b--) w = (w << 8) | parseInt(hex.slice(i * 8 + b * 2, i * 8 + b * 2 + 2), 16);
    words[i] = w >>> 0;
  }
  return words;
}

/** The stored generator of games made before the ChaCha20 streams (mulberry32). */
function legacyNext(state: number): [number, number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return [(t ^ (t >>> 14)) >>> 0, next];
}

/**
 * A cursor over one stream, for use inside one engine step. `state` gives the
 * stream's state after the step: the very object it was made from when nothing was
 * drawn, so unchanged games keep sharing it.
 */
export class Rng {
  private readonly start: RngState | number;
  private key: Uint32Array | null = null;
  private block = new Uint32Array(16);
  private blockIndex = -1;
  private at: number;
  private legacy: number;

  constructor(state: RngState | number) {
    this.start = state;
    if (typeof state === 'number') {
      this.legacy = state >>> 0;
      this.at = 0;
    } else {
      this.legacy = 0;
      this.at = state.at;
    }
  }

  get state(): RngState | number {
    if (typeof this.start === 'number') return this.legacy;
    return this.at === this.start.at ? this.start : { key: this.start.key, at: this.at };
  }

  /** The next 32 random bits as an unsigned integer. */
  private word(): number {
    if (typeof this.start === 'number') {
      const [value, next] = legacyNext(this.legacy);
      this.legacy = next;
      return value;
    }
    const index = Math.floor(this.at / 16);
    if (index !== this.blockIndex) {
      this.key ??= keyWords(this.start.key);
      chachaBlock(this.key, index, this.block);
      this.blockIndex = index;
    }
    return this.block[this.at++ % 16] as number;
  }

  /** Float in [0, 1). */
  float(): number {
    return this.word() / 4294967296;
  }

  /** Integer in [0, n), n ≤ 2^32; without bias (rejection sampling) on a ChaCha20 stream. */
  int(n: number): number {
    if (typeof this.start === 'number') return Math.floor(this.float() * n);
    const limit = 4294967296 - (4294967296 % n);
    let w = this.word();
    while (w >= limit) w = this.word();
    return w % n;
  }

  /** Returns a new, uniformly shuffled array (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** A version-4-shaped UUID drawn from the stream (virtual player ids). */
  uuid(): string {
    const hex = '0123456789abcdef';
    let s = '';
    for (let i = 0; i < 32; i++) {
      let d = this.int(16);
      if (i === 12) d = 4;
      if (i === 16) d = 8 + (d & 3);
      s += hex[d];
      if (i === 7 || i === 11 || i === 15 || i === 19) s += '-';
    }
    return s;
  }
}
