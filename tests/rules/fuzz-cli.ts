/**
 * `npm run fuzz -- --games N --seed S [--actions A]`: plays N random games from seed S
 * on, prints how many games and actions ran, and on a failure the seed and the
 * shortest action list that reproduces it (exit code 1).
 */
import { parseArgs } from 'node:util';
import { describeFailure, fuzz } from './fuzz-core.ts';

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '1' },
    actions: { type: 'string', default: '2000' },
  },
});
const games = Number(values.games);
const seed = Number(values.seed);
const actions = Number(values.actions);
if (![games, seed, actions].every((n) => Number.isInteger(n) && n >= 0)) {
  console.error('usage: npm run fuzz -- --games N --seed S [--actions A]  (whole numbers)');
  process.exit(2);
}
const chunk = 1000;
let total = { games: 0, actions: 0, accepted: 0, wins: 0, ms: 0 };
for (let done = 0; done < games; done += chunk) {
  const s = fuzz(Math.min(chunk, games - done), seed + done, actions);
  total = { games: total.games + s.games, actions: total.actions + s.actions, accepted: total.accepted + s.accepted, wins: total.wins + s.wins, ms: total.ms + s.ms };
  if (games > chunk) process.stdout.write(`\r${total.games}/${games} games`);
  if (s.failures.length > 0) {
    console.log(`\nFAILED after ${total.games} games, ${total.actions} actions`);
    console.log(describeFailure(s.failures[0]!));
    process.exit(1);
  }
}
console.log(
  `\nfuzz: ${total.games} games, ${total.actions} actions (${total.accepted} accepted), ${total.wins} won, ` +
    `seeds ${seed}..${seed + games - 1}, ${(total.ms / 1000).toFixed(1)} s: no invariant broken`,
);
