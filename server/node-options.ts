/**
 * The Node options the game server runs with: `npm start` (package.json), the
 * processes of `npm run cluster` and the load benchmark's server use these
 * (tests/server/node-options.test.ts keeps package.json in step).
 *
 * Budget P1 (RSS ≤ 400 MB with 800 busy rooms). Every action replaces the game's
 * state, which lives about a second, until the room's next action:
 * - `--max-semi-space-size=32`: V8 grows the young generation up to 2 × 64 MB
 *   (Node runs without pointer compression) when much of it survives, as here;
 *   2 × 32 MB still lets most of those states die young. At 16 MB they survive
 *   into the old generation instead, which then grows by more than was saved.
 * - `--max-old-space-size=2000`: below 2 GB V8 grows the old generation by at
 *   most about 2× its live size after a collection, not 4×. 2 GB is still ten
 *   times what 800 rooms keep alive.
 * Measured at 800 rooms: RSS 473 → 397 MB, CPU per move unchanged within the
 * noise (README, Performance).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=32', '--max-old-space-size=2000'];
