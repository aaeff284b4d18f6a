import express, { type Router } from 'express';
import type { CaptchaService, CaptchaVerdict } from '../services/captcha.ts';
import { apiError, sendError, type ApiError } from './errors.ts';

/** `GET /api/altcha`: the registration captcha's challenges (see services/captcha.ts). */

export const CAPTCHA_OFF = apiError(404, 'captcha_off', 'the registration captcha is switched off on this server (REGISTRATION_CAPTCHA=off)');

/** The 400 answer of each refused `altcha_token`. */
export const CAPTCHA_REFUSED: Record<Exclude<CaptchaVerdict, 'ok'>, ApiError> = {
  missing: apiError(400, 'captcha_required', 'this server needs a solved ALTCHA challenge to register: send it as altcha_token (GET /api/altcha gives one)'),
  invalid: apiError(400, 'captcha_invalid', 'altcha solution incorrect'),
  expired: apiError(400, 'captcha_expired', 'the ALTCHA challenge has expired: solve a new one (GET /api/altcha)'),
  used: apiError(400, 'captcha_used', 'this ALTCHA solution was already used: solve a new challenge (GET /api/altcha)'),
};

export function captchaRouter(captcha: CaptchaService): Router {
  const router = express.Router();
  router.get('/altcha', async (_req, res) => {
    if (captcha.mode === 'off') return sendError(res, CAPTCHA_OFF);
    // a challenge is for one solution: never from a cache
    res.set('Cache-Control', 'no-store').json(await captcha.challenge());
  });
  return router;
}
