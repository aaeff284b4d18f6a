import type { Request } from 'express';
import type { GlobalEventEnvelope } from '../events/bus.ts';

/** The text of server-sent events as the hub writes them (docs/api.md#b11), and what it reads off requests. */

/** One serialized event, shared by every subscriber and by the replay history. */
export interface Frame {
  /** Game seq; 0 for global events and heartbeats. */
  seq: number;
  text: string;
  audience: ReadonlySet<string> | null;
  /** A permission the subscriber must hold (global events only); absent: none. */
  permission?: string;
  /** End the stream after writing this frame (the game is gone). */
  final?: boolean;
}

/** The `:` keep-alive comment. */
export const HEARTBEAT: Frame = { seq: 0, text: ':\n\n', audience: null };

/** Names go onto an `event:` line: anything but this could break the framing. */
export const EVENT_NAME = /^[a-z_]{1,32}$/;

/** `Last-Event-ID` header (what EventSource sends on reconnect) or `?lastEventId=`; null if absent or not a seq. */
export function lastEventId(req: Request): number | null {
  const header = req.headers['last-event-id'];
  const query = (req.query as Record<string, unknown> | undefined)?.lastEventId;
  const raw = typeof header === 'string' && header !== '' ? header : typeof query === 'string' ? query : null;
  if (raw === null || !/^\d{1,15}$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * The text of the frames right after `from` in `frames` (oldest first), and the seq
 * they reach; null if the first one needed is not there.
 */
export function contiguousAfter(frames: readonly Frame[], from: number): { text: string; seq: number } | null {
  let seq = from;
  let text = '';
  for (const f of frames) {
    if (f.seq <= seq) continue;
    if (f.seq !== seq + 1) return null;
    text += f.text;
    seq = f.seq;
  }
  return { text, seq };
}

export function globalFrame(e: GlobalEventEnvelope | null | undefined): Frame | null {
  if (!e || typeof e.event !== 'string' || !EVENT_NAME.test(e.event)) return null;
  const audience = Array.isArray(e.audience) ? new Set(e.audience) : null;
  const frame: Frame = { seq: 0, text: `event: ${e.event}\ndata: ${JSON.stringify({ [e.event]: e.data ?? null })}\n\n`, audience };
  if (typeof e.permission === 'string') frame.permission = e.permission;
  return frame;
}

/** Whether a subscriber (its user, and the permissions that user had when the stream opened) may receive `f`. */
export function admits(f: Frame, userId: string | null, permissions: ReadonlySet<string> = NO_PERMISSIONS): boolean {
  if (f.permission !== undefined && !permissions.has(f.permission)) return false;
  return f.audience === null || (userId !== null && f.audience.has(userId));
}

const NO_PERMISSIONS: ReadonlySet<string> = new Set();
