import express, { type Router } from 'express';
import type { CaptchaService, CaptchaVerdict } from '../services/captcha.ts';
import { CAPTCHA_REFUSED as REFUSALS, USER_HTTP_ERRORS, USER_ROUTES } from '../../shared/protocol/routes-users.ts';
import { sendError, type ApiError } from './errors.ts';
import { mount } from './routes.ts';

/** `GET /api/altcha`: the registration captcha's challenges (see services/captcha.ts). */

export const CAPTCHA_OFF = USER_HTTP_ERRORS.captchaOff;

/** The 400 answer of each refused `altcha_token`. */
export const CAPTCHA_REFUSED: Record<Exclude<CaptchaVerdict, 'ok'>, ApiError> = REFUSALS;

export function captchaRouter(captcha: CaptchaService): Router {
  const router = express.Router();
  mount(router, USER_ROUTES.altchaChallenge, async (_input, _req, res) => {
    if (captcha.mode === 'off') return sendError(res, CAPTCHA_OFF);
    // a challenge is for one solution: never from a cache
    res.set('Cache-Control', 'no-store').json(await captcha.challenge());
  });
  return router;
}
