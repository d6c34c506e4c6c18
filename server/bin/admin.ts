// `npm run admin -- <command>`: the provider's account tool (OPERATIONS.md). Opens the database
// of DATA_DIR (or DATABASE_URL) itself and applies migrations, so it works with no server.
// Arguments are checked before the database is opened, so mistakes fail fast. `import` is the
// exception: it talks to the running server over HTTP and never opens the database.
import { parseArgs } from 'node:util';
import {
  AccountError,
  checkAccountInput,
  createAccount,
  type CreateAccountInput,
} from '../src/accounts/create-account.ts';
import { deleteAccount } from '../src/accounts/delete-account.ts';
import { ConfigError, loadConfig, type Config } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openDatabase } from '../src/db/open.ts';
import { findUserByEmail, listUsers } from '../src/repositories/users.ts';
import { createStorage } from '../src/storage/create.ts';
import { BatchTooLargeError, runImport, type ImportSummary } from '../src/import/run-import.ts';
import { excludePattern, FolderSource, type Source } from '../src/import/sources.ts';
import { IMPORT_CONCURRENCY, SUPPORTED_VIDEO_LANGUAGES } from '../src/limits.ts';
import { probeToolForMany } from '../src/media/tools.ts';
import { loadSecrets } from '../src/secrets.ts';
import { TEXT_AREA_MAX_LENGTH } from '../../src/config/limits.ts';

class UsageError extends Error {}

const USAGE = `Usage:
  npm run admin -- create-user --email E --team "Team name" [--name "Full Name"] [--username U] [--password P] [--team-admin]
  npm run admin -- list-users
  npm run admin -- delete-user --email E
  npm run admin -- import --team T --user EMAIL [--about TEXT] [--language CODE] [--concurrency N] [--dry-run] [--exclude GLOB]... <folder | s3://bucket/prefix>`;

type Values = Record<string, string | boolean | undefined>;
type Run = (db: Db, config: Config) => Promise<void>;

function parse(args: string[], options: Record<string, { type: 'string' | 'boolean' }>): Values {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UsageError(`--${name} is required`);
  }
  return value.trim();
}

function optional(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

function createUser(args: string[]): Run {
  const v = parse(args, {
    email: { type: 'string' },
    team: { type: 'string' },
    name: { type: 'string' },
    username: { type: 'string' },
    password: { type: 'string' },
    'team-admin': { type: 'boolean' },
  });
  const input: CreateAccountInput = {
    email: required(v, 'email'),
    team: required(v, 'team'),
    fullName: optional(v, 'name'),
    username: optional(v, 'username'),
    password: optional(v, 'password'),
    isTeamAdmin: v['team-admin'] === true,
  };
  checkAccountInput(input);
  return async (db) => {
    const created = await createAccount(db, input);
    console.log(`Created user ${input.email} in team "${input.team}"`);
    console.log(`  username:   ${created.username}`);
    console.log(`  team admin: ${input.isTeamAdmin ? 'yes' : 'no'}`);
    console.log(`Initial password: ${created.password}`);
    console.log('The user must change it at first login.');
  };
}

function listAllUsers(args: string[]): Run {
  parse(args, {});
  return async (db) => {
    const users = await listUsers(db);
    if (users.length === 0) {
      console.log('No users.');
      return;
    }
    const rows = [
      ['EMAIL', 'TEAM', 'USERNAME', 'NAME', 'ADMIN', 'MUST CHANGE PASSWORD', 'CREATED'],
      ...users.map((u) => [
        u.email,
        u.team_name,
        u.username,
        u.full_name,
        u.is_team_admin ? 'yes' : 'no',
        u.must_change_password ? 'yes' : 'no',
        u.created_at.toISOString().slice(0, 19).replace('T', ' '),
      ]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const r of rows)
      console.log(
        r
          .map((c, i) => c.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      );
  };
}

function deleteUser(args: string[]): Run {
  const email = required(parse(args, { email: { type: 'string' } }), 'email');
  return async (db, config) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw new AccountError(`No user with the e-mail ${email}.`);
    const { deletedVideos } = await deleteAccount(
      { db, storage: await createStorage(config), now: Date.now },
      user.id,
    );
    console.log(
      `Deleted user ${user.email} (team "${user.team_name}") and ${deletedVideos} video(s).`,
    );
  };
}

/** An s3:// address's source; the AWS SDK is loaded only here (a folder's import never needs it). */
async function s3Source(config: Config, address: string): Promise<Source> {
  const [{ S3Source }, { createS3Client }] = await Promise.all([
    import('../src/import/s3-source.ts'),
    import('../src/storage/s3.ts'),
  ]);
  return new S3Source(createS3Client(config.s3), address);
}

/** `import`: runs against the server of this configuration, with no database of its own. */
async function importFolder(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        team: { type: 'string' },
        user: { type: 'string' },
        about: { type: 'string' },
        language: { type: 'string' },
        concurrency: { type: 'string' },
        'dry-run': { type: 'boolean' },
        exclude: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const v = parsed.values as Values;
  const team = required(v, 'team');
  const email = required(v, 'user');
  if (parsed.positionals.length !== 1) {
    throw new UsageError('import takes one folder or s3://bucket/prefix');
  }
  const language = optional(v, 'language') ?? SUPPORTED_VIDEO_LANGUAGES[0].code;
  if (!SUPPORTED_VIDEO_LANGUAGES.some((l) => l.code === language)) {
    const codes = SUPPORTED_VIDEO_LANGUAGES.map((l) => l.code).join(', ');
    throw new UsageError(`--language must be one of ${codes}`);
  }
  const about = optional(v, 'about') ?? '';
  if (about.length > TEXT_AREA_MAX_LENGTH) {
    throw new UsageError(`--about must be at most ${TEXT_AREA_MAX_LENGTH} characters`);
  }
  const concurrency = Number(optional(v, 'concurrency') ?? IMPORT_CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new UsageError('--concurrency must be a whole number from 1 to 32');
  }
  const exclude = ((parsed.values.exclude as string[] | undefined) ?? []).map(excludePattern);
  const config = loadConfig();
  const target = parsed.positionals[0]!;
  const source = target.startsWith('s3://')
    ? await s3Source(config, target)
    : new FolderSource(target);
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  const summary = await runImport(source, {
    team,
    email,
    about,
    language,
    concurrency,
    dryRun: v['dry-run'] === true,
    exclude,
    serverUrl: `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`,
    secrets: loadSecrets(config.dataDir),
    tools: probeToolForMany(config),
    out: process.stdout,
  });
  printSummary(summary, v['dry-run'] === true);
  return summary.failed.length > 0 ? 1 : 0;
}

function printSummary(s: ImportSummary, dryRun: boolean): void {
  const list = (title: string, rows: string[]) => {
    if (rows.length === 0) return;
    console.log(`${title} (${rows.length}):`);
    for (const r of rows) console.log(`  ${r}`);
  };
  if (dryRun) list('Would import', s.wouldImport);
  else list('Imported', s.imported);
  list(
    'Already in the archive',
    s.present.map((p) => `${p.key}  (as ${p.as})`),
  );
  list(
    'Same bytes as another file of this batch',
    s.sameAs.map((p) => `${p.key}  (same as ${p.as})`),
  );
  list(
    'Left out',
    s.leftOut.map((p) => `${p.key}: ${p.reason}`),
  );
  list(
    'Unreadable',
    s.unreadable.map((p) => `${p.key}: ${p.reason}`),
  );
  list(
    'Failed',
    s.failed.map((p) => `${p.key}: ${p.reason}`),
  );
  const done = dryRun ? `${s.wouldImport.length} to import` : `${s.imported.length} imported`;
  console.log(
    `${dryRun ? 'Dry run: ' : ''}${done}, ${s.present.length + s.sameAs.length} already there, ${s.leftOut.length} left out, ${s.unreadable.length} unreadable, ${s.failed.length} failed.`,
  );
}

const COMMANDS: Record<string, (args: string[]) => Run> = {
  'create-user': createUser,
  'list-users': listAllUsers,
  'delete-user': deleteUser,
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'import') return importFolder(rest);
  const prepare = COMMANDS[command];
  if (!prepare) throw new UsageError(`Unknown command "${command}"`);
  const run = prepare(rest);
  const config = loadConfig();
  const db = await openDatabase(config, { shortRun: true });
  try {
    await run(db, config);
  } finally {
    await db.close();
  }
  return 0;
}

/**
 * Exits once stdout and stderr have written everything: a pipe is written asynchronously, and
 * exiting at once cut an import's long listing (and its summary) short when piped to a file.
 */
function exitAfterOutput(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(
  (code) => exitAfterOutput(code),
  (err: unknown) => {
    // Clear messages, no stack traces: this is a tool for people.
    if (err instanceof BatchTooLargeError) {
      console.error(`Refused: ${err.message}`);
      exitAfterOutput(1);
      return;
    }
    if (err instanceof UsageError) {
      console.error(`Error: ${err.message}\n\n${USAGE}`);
      exitAfterOutput(2);
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    const prefix = err instanceof ConfigError ? 'Configuration error' : 'Error';
    console.error(`${prefix}: ${message}`);
    exitAfterOutput(1);
  },
);
