import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { createDataSource, describeDatabase, ensureDatabase, migrate } from '@fincore/database';
import {
  ALL_SCOPES,
  ApiTokenEntity,
  AppConfig,
  createRedisClient,
  DEMO_TENANT_CODE,
  TenantEntity,
  TokenAdmin,
  tokenRevokedChannel,
} from '@fincore/platform';
import { DATABASE_WAIT, isNotYetReachable, reasonOf, untilReachable } from './database-wait';
import { DEMO_SEEDS } from './demo-seeds';
import { listenOptions, runListen } from './listen/listen-command';

/** Wrong arguments: exit code 2 with the usage; `brief` ones point to the usage instead of printing it. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly brief = false,
  ) {
    super(message);
  }
}

export const USAGE = `Usage: npm run -s cli -- <command> [options]

Commands:
  migrate                                         apply pending database migrations (waits up to
                                                  ${DATABASE_WAIT.totalMs / 1000} s for PostgreSQL to accept connections)
  tenant:create <code> [--name <name>]            create a tenant
  token:create --tenant <code> --scopes <a,b|all> [--name <name>]
                                                  create an API token; prints only the token
  token:revoke <id>                               revoke a token (takes effect on every replica at once)
  token:list --tenant <code>                      list a tenant's tokens (never the tokens themselves)
  demo:seed                                       create the demo tenant and data if missing; prints JSON
  listen [--forward-to <url>] [--url <notification-api>] [--token <t>] [--types <a,b>] [--since <cursor|instant>]
                                                  forward the tenant's events to a local URL, signed with
                                                  the printed whsec_ secret, or print them without one;
                                                  token also from FINCORE_TOKEN; secret and cursor kept
                                                  in .fincore (FINCORE_STATE_DIR)

Scopes: ${ALL_SCOPES.join(', ')}; --scopes all grants every one.
-s keeps npm's own lines out of the output: TOKEN=$(npm run -s cli -- token:create …)
`;

const COMMANDS = [
  'migrate',
  'tenant:create',
  'token:create',
  'token:revoke',
  'token:list',
  'demo:seed',
  'listen',
];
const HELP = ['help', '--help', '-h'];

/** The command closest to a mistyped one, when it is close enough to be what was meant. */
export function nearestCommand(typed: string): string | undefined {
  const ranked = COMMANDS.map((c) => ({ c, d: editDistance(typed.toLowerCase(), c) })).sort(
    (a, b) => a.d - b.d,
  );
  return ranked[0].d <= Math.max(2, Math.floor(typed.length / 3)) ? ranked[0].c : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length];
}

/** `--scopes` is required so that a token never gets every scope by omission. */
function requestedScopes(value: string | undefined): string[] {
  if (!value?.trim()) {
    throw new UsageError(`--scopes is required: a comma-separated list of ${ALL_SCOPES.join(', ')}; or all`);
  }
  if (value.trim() === 'all') return [...ALL_SCOPES];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

async function withDataSource<T>(config: AppConfig, fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const entities = [TenantEntity, ApiTokenEntity, ...DEMO_SEEDS.flatMap((s) => s.entities)];
  const ds = createDataSource(config, entities);
  await ds.initialize();
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
  }
}

function parse(args: string[], options: Record<string, { type: 'string' }>, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`expected ${positionals} argument(s), got ${parsed.positionals.length}`);
  }
  return parsed;
}

/** Seeds the demo tenant and every context's demo data; idempotent. */
export async function seedDemo(ds: DataSource): Promise<Record<string, unknown>> {
  return ds.transaction(async (manager) => {
    const admin = new TokenAdmin(manager);
    const tenant =
      (await admin.findTenant(DEMO_TENANT_CODE)) ?? (await admin.createTenant(DEMO_TENANT_CODE, 'Demo Bank'));
    const result: Record<string, unknown> = {
      tenant: { id: tenant.id, code: tenant.code, name: tenant.name },
    };
    for (const seed of DEMO_SEEDS) result[seed.context] = await seed.seed(manager, tenant);
    return result;
  });
}

/** Runs one command line; help and wrong commands need no configuration, so it is loaded only after. */
export async function runCommand(argv: string[], loadSettings: () => AppConfig, io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('no command given');
  if (HELP.includes(command)) {
    io.out(USAGE);
    return 0;
  }
  if (!COMMANDS.includes(command)) {
    const nearest = nearestCommand(command);
    throw new UsageError(
      `unknown command "${command}"${nearest ? `; did you mean ${nearest}?` : ''} (usage: npm run -s cli -- help)`,
      true,
    );
  }
  if (command === 'listen') {
    // Needs no database or Redis settings: it talks to notification-api only.
    const options = listenOptions(rest, process.env);
    if (typeof options === 'string') throw new UsageError(options);
    return runListen(options, io);
  }
  return run(command, rest, loadSettings(), io);
}

async function run(command: string, rest: string[], config: AppConfig, io: Io): Promise<number> {
  switch (command) {
    case 'migrate': {
      parse(rest, {}, 0);
      const where = describeDatabase(config.DATABASE_URL);
      const created = await untilReachable(
        () => ensureDatabase(config.DATABASE_URL),
        (error, delayMs) =>
          io.err(
            `waiting for PostgreSQL at ${where} (${reasonOf(error)}); next try in ${Math.round(delayMs / 100) / 10} s`,
          ),
      ).catch((error: unknown) => {
        if (!isNotYetReachable(error)) throw error;
        const bound = DATABASE_WAIT.totalMs / 1000;
        throw new Error(
          `PostgreSQL at ${where} did not accept connections within ${bound} s (${reasonOf(error)})`,
        );
      });
      if (created) io.err('created database');
      const applied = await migrate(config);
      io.err(
        applied.length
          ? `applied ${applied.length} migration(s): ${applied.join(', ')}`
          : 'database is up to date',
      );
      return 0;
    }
    case 'tenant:create': {
      const { positionals, values } = parse(rest, { name: { type: 'string' } }, 1);
      const tenant = await withDataSource(config, (ds) =>
        new TokenAdmin(ds).createTenant(positionals[0], values.name),
      );
      io.out(JSON.stringify({ id: tenant.id, code: tenant.code, name: tenant.name }));
      return 0;
    }
    case 'token:create': {
      const { values } = parse(
        rest,
        { tenant: { type: 'string' }, scopes: { type: 'string' }, name: { type: 'string' } },
        0,
      );
      if (!values.tenant) throw new UsageError('--tenant is required');
      const scopes = requestedScopes(values.scopes);
      const { token, entity } = await withDataSource(config, (ds) =>
        new TokenAdmin(ds).createToken(values.tenant!, { scopes, name: values.name }),
      );
      io.err(`token ${entity.id} for ${values.tenant} with scopes ${entity.scopes.join(',')}`);
      io.out(token);
      return 0;
    }
    case 'token:revoke': {
      const { positionals } = parse(rest, {}, 1);
      const id = positionals[0];
      if (!/^[0-9a-f-]{36}$/i.test(id)) throw new UsageError(`"${id}" is not a token id (uuid)`);
      const revoked = await withDataSource(config, (ds) => new TokenAdmin(ds).revokeToken(id));
      if (!revoked) {
        io.err(`no active token with id ${id}`);
        return 1;
      }
      await publishRevocation(config, id, io);
      io.out(JSON.stringify({ id, revoked: true }));
      return 0;
    }
    case 'token:list': {
      const { values } = parse(rest, { tenant: { type: 'string' } }, 0);
      if (!values.tenant) throw new UsageError('--tenant is required');
      const tokens = await withDataSource(config, (ds) => new TokenAdmin(ds).listTokens(values.tenant!));
      io.out(
        JSON.stringify(
          tokens.map((t) => ({
            id: t.id,
            name: t.name,
            prefix: t.tokenPrefix,
            scopes: t.scopes,
            createdAt: t.createdAt,
            lastUsedAt: t.lastUsedAt,
            revokedAt: t.revokedAt,
          })),
          null,
          2,
        ),
      );
      return 0;
    }
    case 'demo:seed': {
      parse(rest, {}, 0);
      const result = await withDataSource(config, seedDemo);
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    default:
      throw new Error(`no such command: ${command}`);
  }
}

/** Running apps cache tokens briefly; this tells every replica to forget the revoked one now. */
async function publishRevocation(config: AppConfig, tokenId: string, io: Io): Promise<void> {
  const redis = createRedisClient(config, { lazyConnect: true, maxRetriesPerRequest: 1, reconnect: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.publish(tokenRevokedChannel(config), tokenId);
  } catch (error) {
    io.err(
      `warning: could not notify running apps (${(error as Error).message}); caches expire within TOKEN_CACHE_SECONDS`,
    );
  } finally {
    redis.disconnect();
  }
}
