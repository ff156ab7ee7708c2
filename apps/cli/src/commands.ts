import { parseArgs } from 'node:util';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { createDataSource, ensureDatabase, migrate } from '@fincore/database';
import {
  ALL_SCOPES,
  ApiTokenEntity,
  AppConfig,
  DEMO_TENANT_CODE,
  TenantEntity,
  TokenAdmin,
  tokenRevokedChannel,
} from '@fincore/platform';
import { DEMO_SEEDS } from './demo-seeds';

export class UsageError extends Error {}

export const USAGE = `Usage: npm run cli -- <command> [options]

Commands:
  migrate                                         apply pending database migrations
  tenant:create <code> [--name <name>]            create a tenant
  token:create --tenant <code> [--scopes a,b] [--name <name>]
                                                  create an API token; prints only the token
  token:revoke <id>                               revoke a token (takes effect on every replica at once)
  token:list --tenant <code>                      list a tenant's tokens (never the tokens themselves)
  demo:seed                                       create the demo tenant and data if missing; prints JSON

Scopes: ${ALL_SCOPES.join(', ')}
`;

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

export async function runCommand(argv: string[], config: AppConfig, io: Io): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'migrate': {
      parse(rest, {}, 0);
      const created = await ensureDatabase(config.DATABASE_URL);
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
      const scopes = values.scopes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
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
    case undefined:
    case 'help':
    case '--help':
      throw new UsageError(command ? '' : 'no command given');
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** Running apps cache tokens briefly; this tells every replica to forget the revoked one now. */
async function publishRevocation(config: AppConfig, tokenId: string, io: Io): Promise<void> {
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
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
