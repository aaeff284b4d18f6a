/**
 * The Node options the game server runs with: `npm start` (package.json), the
 * processes of `npm run cluster` and the load benchmark's server use these
 * (tests/server/node-options.test.ts keeps package.json in step).
 *
 * `--max-semi-space-size=32` (budget P1, RSS ≤ 400 MB with 800 busy rooms): every
 * action replaces the game's state, which then lives about a second, until the
 * room's next action. So much of the young generation survives a scavenge that V8
 * grows it to its maximum, 2 × 64 MB (Node runs without pointer compression);
 * 2 × 32 MB still lets most of those states die young. With 2 × 16 MB they live
 * on into the old generation instead, which grows by more than was saved.
 * Measured at 800 rooms: RSS 473–503 → 420–423 MB, CPU per move and P2 within
 * the noise. (`--max-old-space-size=2000` as well, which caps V8's growth of the
 * old generation at about 2× instead of 4×, gave 393–397 MB but longer
 * collections and a P2 p99 of 31–35 ms against 25: not kept. README, Performance.)
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=32'];
