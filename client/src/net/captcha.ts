import { api } from './api.ts';

/** Solutions older than this are not sent: the server accepts a challenge for 5 minutes after it was issued. */
export const CAPTCHA_FRESH_MS = 4 * 60_000;

/**
 * The registration captcha: fetches a challenge (`GET /api/altcha`), finds its
 * number by brute force with the library's solver, about a second of hashing in
 * the background, and returns the `altcha_token` to send. Null when there is
 * nothing to send: the server has the captcha off (404), cannot be reached, or
 * the browser has no Web Crypto (only secure contexts have it: https:// or
 * localhost). The registration then goes without a token and the server's
 * REGISTRATION_CAPTCHA decides whether that is enough.
 */
export async function solveCaptcha(signal?: AbortSignal): Promise<string | null> {
  try {
    const c = await api('get', '/api/altcha', { schema: (s) => s.AltchaChallengeSchema, retryOn401: false, ...(signal ? { signal } : {}) });
    // the solver only ever loads with the register screen, in its own chunk
    const { solveChallenge } = await import('altcha-lib/v1');
    if (signal?.aborted) return null;
    const { promise, controller } = solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber);
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    const solution = await promise;
    if (!solution) return null;
    return btoa(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature }));
  } catch {
    return null;
  }
}
