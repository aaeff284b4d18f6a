import { z } from 'zod';
import { NAME_MAX, NAME_MIN } from '../rules/constants.ts';
import { boundedText, personName, UuidSchema } from './common.ts';

/**
 * Users and sessions on the wire (docs/api.md#b2, #b3, #b4, #endpoints, #sessions).
 * Note the two meanings of `virtual`: on a user it means "guest" (no account),
 * on a player it means "local, name-only player".
 */

/** An account name as typed to log in: trimmed, 3..32 characters, no control characters. */
export const UsernameSchema = boundedText(3, 32);

/**
 * A new account's name: a UsernameSchema that is also a personName (no
 * invisible or direction characters); uniqueness is the database's job.
 */
export const NewUsernameSchema = personName(3, 32);

/**
 * A guest's chosen name (`PATCH /api/users/me`): a player's name (1..32
 * characters, as Local players' names), not an account's (3..32): "Jo" is a
 * fine name at a party. Whether an account has it, or a name that looks the
 * same, is the server's check.
 */
export const GuestNameSchema = personName(NAME_MIN, NAME_MAX);

/** `PATCH /api/users/me` body: a guest's new name. */
export const UpdateMeBodySchema = z.strictObject({
  name: GuestNameSchema,
});

/** A password: 8..256 characters, taken as typed (never trimmed); the cap bounds the hashing work. */
export const PasswordSchema = z.string().min(8).max(256);

/** `POST /api/users/login` body. */
export const LoginBodySchema = z.object({
  username: UsernameSchema,
  password: PasswordSchema,
});

/**
 * `POST /api/users/register` body. `altcha_token` is a solved `GET /api/altcha`
 * challenge (see AltchaPayloadSchema); null, "" or no token at all mean none was
 * solved (the original web client sends null then), which the server's
 * REGISTRATION_CAPTCHA decides about.
 */
export const RegisterBodySchema = z.object({
  username: NewUsernameSchema,
  password: PasswordSchema,
  altcha_token: z.string().max(4096).nullable().optional(),
});

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex');

/**
 * `GET /api/altcha` reply: an ALTCHA proof-of-work challenge (the protocol the
 * `altcha` widget 2.x and `altcha-lib/v1` speak). `challenge` is the SHA-256 of
 * `salt` followed by a secret number from 0 to `maxnumber`; the salt carries the
 * expiry (`…?expires=<unix seconds>&`), and `signature` is the server's HMAC of
 * `challenge`.
 */
export const AltchaChallengeSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: sha256Hex,
  maxnumber: z.number().int().positive(),
  salt: z.string().min(1).max(256),
  signature: sha256Hex,
});

/**
 * A solution as `altcha_token` carries it, base64-encoded JSON: the challenge's
 * fields and the `number` found. Other fields a widget adds (`took`) are ignored.
 */
export const AltchaPayloadSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: sha256Hex,
  number: z.number().int().min(0).max(1e9),
  salt: z.string().min(1).max(256),
  signature: sha256Hex,
});

/** A user as others see him (`GET /api/users/{id}`, login reply); `virtual` = guest without an account. */
export const UserPayloadSchema = z.strictObject({
  id: UuidSchema,
  name: z.string(),
  virtual: z.boolean(),
});

/** `GET /api/users` reply. */
export const UserListSchema = z.strictObject({
  users: z.array(UserPayloadSchema),
});

/** Permission bits as the `user` cookie spells them (docs/api.md#permissions: write_hits = 1 … delete_issues = 16). */
export const PermissionsSchema = z.strictObject({
  write_hits: z.boolean(),
  write_packs: z.boolean(),
  read_issues: z.boolean(),
  write_issues: z.boolean(),
  delete_issues: z.boolean(),
});

/**
 * The readable `user` cookie's JSON (docs/api.md#sessions). The client reads who it is and
 * when to refresh from it; the server never trusts it. `valid_until` is RFC 3339.
 */
export const UserCookieSchema = z.strictObject({
  id: UuidSchema,
  name: z.string(),
  virtual: z.boolean(),
  valid_until: z.iso.datetime({ offset: true }),
  permissions: PermissionsSchema,
});

export type LoginBody = z.infer<typeof LoginBodySchema>;
export type UpdateMeBody = z.infer<typeof UpdateMeBodySchema>;
export type RegisterBody = z.infer<typeof RegisterBodySchema>;
export type AltchaChallenge = z.infer<typeof AltchaChallengeSchema>;
export type AltchaPayload = z.infer<typeof AltchaPayloadSchema>;
export type UserPayload = z.infer<typeof UserPayloadSchema>;
export type UserList = z.infer<typeof UserListSchema>;
export type Permissions = z.infer<typeof PermissionsSchema>;
export type UserCookie = z.infer<typeof UserCookieSchema>;
