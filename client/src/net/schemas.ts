/**
 * Every zod schema the shell validates with, in one module that is loaded with
 * `import()`: zod alone is ~22 kB gzip, a tenth of the initial-JS budget (P9),
 * and nothing needs it before the first server answer arrives, which it is
 * fetched in parallel with. Add the schemas new calls need here.
 */
// zod first, then a pause (budget P10), then the schemas
import './schemas-yield.ts';
export { ErrorBodySchema, SuccessBodySchema } from '../../../shared/protocol/common.ts';
export { DjClipSchema, GameListSchema, GamePayloadSchema, JoinAddressSchema, SeatKeyReplySchema } from '../../../shared/protocol/game.ts';
export { PackListSchema } from '../../../shared/protocol/catalogue.ts';
// the game screen's evidence about a revealed card's year (docs/disputes.md#evidence)
export { EvidenceSchema } from '../../../shared/protocol/reports.ts';
// the catalogue screens (lazy, but their calls go through the same one schema module)
export {
  AddressImportReportSchema,
  AudioQueuedViewSchema,
  AudioStatusViewSchema,
  FullHitPayloadSchema,
  HitSearchReplySchema,
  ImportReportSchema,
  PackPayloadSchema,
  PlayableCountsSchema,
} from '../../../shared/protocol/catalogue.ts';
export { HitHistorySchema, HitIssueSchema, ReviewQueueSchema } from '../../../shared/protocol/reports.ts';
export { AltchaChallengeSchema, UserCookieSchema, UserPayloadSchema } from '../../../shared/protocol/users.ts';
export { GLOBAL_EVENT_NAMES, parseGlobalEvent } from '../../../shared/protocol/events.ts';
