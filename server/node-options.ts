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
 *
 * `--max-old-space-size=1200`: V8 lets the old generation grow to about 4× what
 * survived its last full collection when the heap may reach 2 GB or more (the
 * default here), and to 1.3–2× below that; 1,200 MB gives about 1.7×. At 800
 * rooms about 110 MB live, so the old generation stays near 150–160 MB instead of
 * 170–240. The cap leaves room: 800 busy rooms need about 250 MB of heap
 * (docs/budgets.md#how; the measurements are in bench/HISTORY.md).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=32', '--max-old-space-size=1200'];
