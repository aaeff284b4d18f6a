import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSchemas } from '../../client/src/net/load-schemas.ts';
import { readCookie, readUserCookie, scheduleRecheck } from '../../client/src/net/session.ts';
import { resetSessionForTests, useSession } from '../../client/src/stores/session.ts';
import { json } from './render.tsx';

const user = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  name: 'kindly-brave-otter',
  virtual: true,
  valid_until: '2030-01-01T10:00:00.000Z',
  permissions: { write_hits: false, write_packs: false, read_issues: false, write_issues: true, delete_issues: false },
};
const cookie = (value: unknown) => `id=secret; user=${encodeURIComponent(JSON.stringify(value))}; other=1`;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  resetSessionForTests();
  for (const c of document.cookie.split(';')) document.cookie = `${c.split('=')[0]?.trim()}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
});

describe('the user cookie', () => {
  it('is read and validated', async () => {
    const schemas = await loadSchemas();
    expect(readCookie('other', cookie(user))).toBe('1');
    expect(readUserCookie(schemas, cookie(user))).toEqual(user);
  });

  it('is no user when missing, unparsable or off-schema', async () => {
    const schemas = await loadSchemas();
    expect(readUserCookie(schemas, 'id=x')).toBeNull();
    expect(readUserCookie(schemas, 'user=%7Bnot json')).toBeNull();
    expect(readUserCookie(schemas, 'user=%E0%A4%A')).toBeNull();
    expect(readUserCookie(schemas, cookie({ ...user, id: 'not-a-uuid' }))).toBeNull();
    expect(readUserCookie(schemas, cookie({ ...user, permissions: undefined }))).toBeNull();
  });
});

describe('scheduleRecheck', () => {
  it('fires at valid_until, not before', () => {
    vi.useFakeTimers();
    const start = Date.parse('2030-01-01T09:00:00.000Z');
    vi.setSystemTime(start);
    const recheck = vi.fn();
    scheduleRecheck('2030-01-01T10:00:00.000Z', recheck);
    vi.advanceTimersByTime(3_600_000 - 1);
    expect(recheck).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(recheck).toHaveBeenCalledTimes(1);
  });

  it('fires at once when already due, and can be cancelled', () => {
    vi.useFakeTimers();
    const recheck = vi.fn();
    scheduleRecheck('2000-01-01T00:00:00Z', recheck);
    expect(recheck).toHaveBeenCalledTimes(1);
    const later = vi.fn();
    const cancel = scheduleRecheck(new Date(Date.now() + 1000).toISOString(), later);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(later).not.toHaveBeenCalled();
  });
});

describe('session store', () => {
  it('asks /api/users/auth once at start and is ready with the cookie user', async () => {
    const fetch = vi.fn(async () => {
      document.cookie = `user=${encodeURIComponent(JSON.stringify(user))}; path=/`;
      return json({ type: 'success', message: 'success' });
    });
    vi.stubGlobal('fetch', fetch);
    expect(useSession.getState().ready).toBe(false);
    await Promise.all([useSession.getState().start(), useSession.getState().start()]);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(useSession.getState()).toMatchObject({ ready: true, user, authFailed: false });
  });

  it('is ready without a user when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    await useSession.getState().start();
    expect(useSession.getState()).toMatchObject({ ready: true, user: null, authFailed: true });
  });
});
