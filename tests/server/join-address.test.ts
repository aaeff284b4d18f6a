import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JoinAddressSchema } from '../../shared/protocol/game.ts';
import { isLoopback, lanOrigins } from '../../server/http/join-address.ts';
import { bootServer, type TestServer } from './harness.ts';

/** The machine's first non-internal IPv4 address, if it has one (a container without a network has none). */
const lanV4 = Object.values(networkInterfaces())
  .flatMap((l) => l ?? [])
  .find((i) => !i.internal && i.family === 'IPv4')?.address;

describe('GET /api/join-address', () => {
  let t: TestServer;
  beforeAll(async () => {
    // on every interface, so the test can also come in by the LAN address
    t = await bootServer({ HOST: '0.0.0.0', PUBLIC_URL: 'https://party.example.org' });
  });
  afterAll(() => t.stop());

  const get = async (base: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/join-address`, { headers });
    return { status: res.status, body: JoinAddressSchema.parse(await res.json()), cache: res.headers.get('cache-control') };
  };

  it('a browser on the machine itself learns PUBLIC_URL and the LAN origins with the port it came in on', async () => {
    const { status, body, cache } = await get(t.base);
    expect(status).toBe(200);
    expect(cache).toBe('no-store');
    expect(body.public_url).toBe('https://party.example.org');
    const own = Object.values(networkInterfaces()).flatMap((l) => l ?? []).filter((i) => !i.internal).map((i) => i.address);
    for (const origin of body.lan) {
      const url = new URL(origin);
      expect(url.port).toBe(String(t.server.port));
      expect(own).toContain(url.hostname.replace(/^\[|\]$/g, ''));
      expect(isLoopback(url.hostname.replace(/^\[|\]$/g, ''))).toBe(false);
    }
    if (lanV4) expect(body.lan).toContain(`http://${lanV4}:${t.server.port}`);
  });

  it('a request a proxy forwarded gets no LAN addresses, even over loopback', async () => {
    expect((await get(t.base, { 'X-Forwarded-For': '203.0.113.9' })).body).toEqual({ public_url: 'https://party.example.org', lan: [] });
    expect((await get(t.base, { Forwarded: 'for=203.0.113.9' })).body.lan).toEqual([]);
  });

  it.skipIf(!lanV4)('a request from another address (the LAN) gets no LAN addresses', async () => {
    const { body } = await get(`http://${lanV4}:${t.server.port}`);
    expect(body).toEqual({ public_url: 'https://party.example.org', lan: [] });
  });

  it('without PUBLIC_URL the public address is null', async () => {
    const bare = await bootServer();
    try {
      const { body } = await get(bare.base);
      expect(body.public_url).toBeNull();
    } finally {
      await bare.stop();
    }
  });
});

describe('lanOrigins / isLoopback', () => {
  it('lists IPv4 first, leaves out internal and link-local interfaces, brackets IPv6', () => {
    const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as never;
    expect(lanOrigins(3000, { lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], eth0: [nic('fe80::1', 'IPv6'), nic('fd00::5', 'IPv6'), nic('192.168.1.20', 'IPv4')] })).toEqual([
      'http://192.168.1.20:3000',
      'http://[fd00::5]:3000',
    ]);
  });
  it('knows the loopback addresses', () => {
    expect(['127.0.0.1', '127.8.0.1', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['192.168.1.2', '::ffff:10.0.0.1', 'fd00::1', ''].map(isLoopback)).toEqual([false, false, false, false]);
  });
});
