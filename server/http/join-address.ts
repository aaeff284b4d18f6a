import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { Router } from 'express';
import type { JoinAddress } from '../../shared/protocol/game.ts';
import { GAME_ROUTES } from '../../shared/protocol/routes-games.ts';
import { mount } from './routes.ts';

/**
 * `GET /api/join-address` (docs/api.md#endpoints): what a host on `localhost` shows phones
 * instead of his own address. The LAN addresses go only to a browser on this very
 * machine: a request from a loopback address that no proxy forwarded (behind a
 * proxy on the same machine every request would look local).
 */

/** Is this socket address the machine itself (IPv4 127/8, ::1, or IPv4-mapped 127/8)? */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/** Did this request come straight from the machine itself? */
export function fromThisMachine(req: IncomingMessage): boolean {
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined) return false;
  return isLoopback(req.socket.remoteAddress ?? '');
}

/**
 * The origins `http://<address>:<port>` of the machine's non-internal interfaces:
 * IPv4 first (what phones on a home network use), then IPv6 except link-local
 * (an `fe80::` address needs a zone no browser takes).
 */
export function lanOrigins(port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const all = Object.values(interfaces).flatMap((list) => list ?? []).filter((i) => !i.internal);
  const v4 = all.filter((i) => i.family === 'IPv4').map((i) => `http://${i.address}:${port}`);
  const v6 = all.filter((i) => i.family === 'IPv6' && isIPv6(i.address) && !/^fe[89ab]/i.test(i.address)).map((i) => `http://[${i.address}]:${port}`);
  return [...new Set([...v4, ...v6])];
}

export function joinAddressRouter(deps: { publicUrl: string | undefined }): Router {
  const r = Router();
  mount(r, GAME_ROUTES.getJoinAddress, (_input, req, res) => {
    // the port the browser used: this process's, whatever PORT said (0 in tests)
    const body: JoinAddress = { public_url: deps.publicUrl ?? null, lan: fromThisMachine(req) ? lanOrigins(req.socket.localPort ?? 0) : [] };
    res.set('Cache-Control', 'no-store').json(body);
  });
  return r;
}
