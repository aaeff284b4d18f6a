/**
 * Admin command line: `npm run cli -- <area> <command> …` (docs/api.md#cli). Opens the
 * same database as the server (DATABASE_URL, WAL), so it works while the server
 * runs. Exit code 1 with a one-line reason on any failure.
 */
import pino from 'pino';
import { loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/index.ts';
import { CatalogueService } from '../services/catalogue.ts';
import { UsersService } from '../services/users.ts';
import { configuredSources, EvidenceService } from '../services/evidence/index.ts';
import { ReportsService } from '../services/reports.ts';
import { AUDIO_USAGE, runImportFolderCommand } from './audio.ts';
import { AUDIT_USAGE, runAuditCommand } from './audit.ts';
import { CATALOGUE_USAGE, runExportCommand, runImportCommand } from './catalogue.ts';
import { CliError, runUsersCommand, USERS_USAGE } from './users.ts';

const USAGE = `Hitline admin command line\n\n${USERS_USAGE}\n\n${CATALOGUE_USAGE}\n\n${AUDIO_USAGE}\n\n${AUDIT_USAGE}`;

/** Node's parseArgs reports operator mistakes as coded TypeErrors. */
const isArgError = (error: unknown): boolean => typeof (error as { code?: unknown })?.code === 'string' && String((error as { code: string }).code).startsWith('ERR_PARSE_ARGS');

async function main(argv: string[]): Promise<void> {
  const [area, ...rest] = argv;
  if (area === undefined || area === 'help' || area === '--help' || area === '-h') {
    console.log(USAGE);
    return;
  }
  if (area !== 'users' && area !== 'import' && area !== 'export' && area !== 'import-folder' && area !== 'audit-years') throw new CliError(`unknown command "${area}"\n\n${USAGE}`);
  const config = loadConfig();
  // Diagnostics go to stderr so the command's own output stays clean for scripts.
  const log = pino({ level: 'warn', base: undefined }, pino.destination(2));
  let db: Db | undefined;
  try {
    db = await openDatabase(config.DATABASE_URL);
    const out = (line: string) => console.log(line);
    if (area === 'audit-years') {
      const reports = new ReportsService(db, log);
      const evidence = new EvidenceService(db, log, (id) => reports.historyOf(id), { sources: configuredSources(config) });
      // Ctrl+C: the hit being looked up stays pending; a second Ctrl+C ends the process at once
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      process.exitCode = await runAuditCommand(db, { evidence, reports }, rest, { out }, stop.signal);
      evidence.close();
    } else if (area === 'import-folder') process.exitCode = await runImportFolderCommand(db, config, rest, { out });
    else if (area === 'import') {
      const remote = { timeoutMs: config.IMPORT_FETCH_TIMEOUT_SECONDS * 1000, allowPrivate: config.IMPORT_ALLOW_PRIVATE };
      process.exitCode = await runImportCommand(db, rest, { out }, remote);
    }
    else if (area === 'export') process.exitCode = await runExportCommand(db, rest, { out }, new CatalogueService(db, log).search);
    else await runUsersCommand(new UsersService(db, config, log), rest, { out, stdin: process.stdin });
  } finally {
    await db?.destroy();
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const expected = error instanceof CliError || isArgError(error) || (error instanceof Error && error.message.startsWith('Invalid configuration'));
  console.error(`error: ${expected ? (error as Error).message : String((error as Error)?.stack ?? error)}`);
  process.exitCode = 1;
});
