// `npm run admin -- <command>`: the provider's account tool (OPERATIONS.md). Opens the database
// of DATA_DIR (or DATABASE_URL) itself and applies migrations, so it works with no server.
// Arguments are checked before the database is opened, so mistakes fail fast.
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

class UsageError extends Error {}

const USAGE = `Usage:
  npm run admin -- create-user --email E --team "Team name" [--name "Full Name"] [--username U] [--password P] [--team-admin]
  npm run admin -- list-users
  npm run admin -- delete-user --email E`;

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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Clear messages, no stack traces: this is a tool for people.
    if (err instanceof UsageError) {
      console.error(`Error: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const message = err instanceof Error ? err.message : String(err);
    const prefix = err instanceof ConfigError ? 'Configuration error' : 'Error';
    console.error(`${prefix}: ${message}`);
    process.exit(1);
  },
);
