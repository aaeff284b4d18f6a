import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import {
  ALL_PERMISSIONS,
  DEFAULT_PERMISSIONS,
  isPermissionBits,
  PERMISSION_NAMES,
  type AccountInfo,
  type PermissionChange,
  type PermissionName,
  type UsersService,
} from '../services/users.ts';

/**
 * `users …` commands of the admin CLI (docs/api.md#cli, #b3): create accounts, set
 * permissions, list accounts and permission bits. They work on the same database
 * as a running server; permission changes count at that server's next request.
 */

/** A failure the user can fix: printed without a stack trace, exit code 1. */
export class CliError extends Error {}

export const USERS_USAGE = `usage:
  npm run cli -- users create NAME [--all | --permissions N] [--password P]
  npm run cli -- users set-permissions NAME (--all | --permissions N | --grant LIST | --revoke LIST)
  npm run cli -- users list
  npm run cli -- users permissions

  --all              every permission (${ALL_PERMISSIONS})
  --permissions N    exactly these bits (0..${ALL_PERMISSIONS}, see "users permissions"); default ${DEFAULT_PERMISSIONS}
  --grant LIST       add permissions by name, comma-separated (e.g. write_hits,write_packs)
  --revoke LIST      remove permissions by name
  --password P       the password (visible in the process list: prefer the prompt,
                     or pipe it on stdin when not on a terminal)`;

/** Output sink, so tests and the entry point can route it. */
export interface CliIo {
  out: (line: string) => void;
  stdin: NodeJS.ReadStream;
}

function parseBits(text: string): number {
  if (!/^\d+$/.test(text) || !isPermissionBits(Number(text))) throw new CliError(`--permissions must be a whole number from 0 to ${ALL_PERMISSIONS}, got "${text}"`);
  return Number(text);
}

function parseNames(text: string, option: string): number {
  let bits = 0;
  for (const raw of text.split(',')) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    if (name === 'all') {
      bits |= ALL_PERMISSIONS;
      continue;
    }
    if (!Object.hasOwn(PERMISSION_NAMES, name)) {
      throw new CliError(`${option}: unknown permission "${raw.trim()}" (known: ${Object.keys(PERMISSION_NAMES).join(', ')}, all)`);
    }
    bits |= PERMISSION_NAMES[name as PermissionName];
  }
  if (bits === 0) throw new CliError(`${option} needs at least one permission name`);
  return bits;
}

function flagLines(bits: number): string[] {
  return Object.entries(PERMISSION_NAMES).map(([name, bit]) => `  ${name} (${bit}): ${(bits & bit) !== 0 ? 'yes' : 'no'}`);
}

function describe(account: AccountInfo): string[] {
  return [`${account.name}  id ${account.id}  permissions ${account.permissions}`, ...flagLines(account.permissions)];
}

/** Reads a password without echo from a terminal (raw mode: Enter ends, Backspace edits, Ctrl-C aborts). */
function promptHidden(stdin: NodeJS.ReadStream, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    process.stderr.write(question);
    let typed = '';
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new CliError('aborted'));
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else if (ch >= ' ') typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}

/** The first line of a piped stdin. */
function readLine(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: stdin, terminal: false });
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) reject(new CliError('no password given: pass --password, or type it on a terminal, or pipe it on stdin'));
    });
  });
}

async function readPassword(io: CliIo): Promise<string> {
  if (!io.stdin.isTTY) return readLine(io.stdin);
  const first = await promptHidden(io.stdin, 'password: ');
  const second = await promptHidden(io.stdin, 'repeat password: ');
  if (first !== second) throw new CliError('the passwords do not match');
  return first;
}

/** Runs `users <sub> …`; throws {@link CliError} for anything the operator can fix. */
export async function runUsersCommand(users: UsersService, args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    strict: true,
    options: {
      all: { type: 'boolean', short: 'a' },
      permissions: { type: 'string', short: 'p' },
      grant: { type: 'string' },
      revoke: { type: 'string' },
      password: { type: 'string' },
    },
  });
  const exclusive = [values.all, values.permissions, values.grant ?? values.revoke].filter((v) => v !== undefined && v !== false);
  if (exclusive.length > 1) throw new CliError('--all, --permissions and --grant/--revoke exclude each other');

  switch (sub) {
    case 'create': {
      const [name, ...extra] = positionals;
      if (name === undefined || extra.length > 0) throw new CliError(`users create needs exactly one NAME\n${USERS_USAGE}`);
      if (values.grant !== undefined || values.revoke !== undefined) throw new CliError('users create takes --all or --permissions, not --grant/--revoke');
      const bits = values.all ? ALL_PERMISSIONS : values.permissions !== undefined ? parseBits(values.permissions) : DEFAULT_PERMISSIONS;
      const password = values.password ?? (await readPassword(io));
      const result = await users.createAccount(name, password, bits);
      if (!result.ok) throw new CliError(result.message);
      io.out(`created user ${result.value.name}`);
      for (const line of describe(result.value)) io.out(line);
      return;
    }
    case 'set-permissions': {
      const [name, ...extra] = positionals;
      if (name === undefined || extra.length > 0) throw new CliError(`users set-permissions needs exactly one NAME\n${USERS_USAGE}`);
      if (values.password !== undefined) throw new CliError('users set-permissions takes no --password');
      let change: PermissionChange;
      if (values.all) change = { set: ALL_PERMISSIONS };
      else if (values.permissions !== undefined) change = { set: parseBits(values.permissions) };
      else if (values.grant !== undefined || values.revoke !== undefined) {
        change = {
          grant: values.grant === undefined ? 0 : parseNames(values.grant, '--grant'),
          revoke: values.revoke === undefined ? 0 : parseNames(values.revoke, '--revoke'),
        };
      } else throw new CliError('users set-permissions needs --all, --permissions N, --grant LIST or --revoke LIST');
      const result = await users.setPermissions(name, change);
      if (!result.ok) throw new CliError(result.message);
      io.out(`updated user ${result.value.name}`);
      for (const line of describe(result.value)) io.out(line);
      return;
    }
    case 'list': {
      if (positionals.length > 0 || exclusive.length > 0 || values.password !== undefined) throw new CliError('users list takes no arguments');
      const accounts = await users.listAccounts();
      if (accounts.length === 0) io.out('no registered users');
      for (const account of accounts) for (const line of describe(account)) io.out(line);
      return;
    }
    case 'permissions': {
      if (positionals.length > 0 || exclusive.length > 0 || values.password !== undefined) throw new CliError('users permissions takes no arguments');
      for (const [name, bit] of Object.entries(PERMISSION_NAMES)) io.out(`${name}: ${bit}`);
      io.out(`all: ${ALL_PERMISSIONS}`);
      return;
    }
    default:
      throw new CliError(sub === undefined ? USERS_USAGE : `unknown users command "${sub}"\n${USERS_USAGE}`);
  }
}
