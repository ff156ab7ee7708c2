import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type Redis from 'ioredis';
import type { PersonInput } from './builders/persons';
import type { TestStack } from './stack';

/**
 * A person whose every personal field holds a marker no other data can contain, and the markers,
 * so that a store can be searched for any trace of them.
 */
export function markedPerson(): { person: PersonInput; markers: string[] } {
  const tag = () => randomBytes(6).toString('hex');
  const [first, last, mail, user] = [tag(), tag(), tag(), tag()];
  // E.164 allows digits only: 13 random ones after +9 are as unique as any marker.
  const phone = `+9${BigInt(`0x${randomBytes(6).toString('hex')}`)
    .toString()
    .padStart(13, '7')
    .slice(0, 13)}`;
  const person: PersonInput = {
    personId: `erasable-${tag()}`,
    username: `mkuser${user}`,
    password: `mk passphrase ${tag()}`,
    firstName: `MkFirst${first}`,
    lastName: `MkLast${last}`,
    email: `mk${mail}@example.com`,
    phone,
  };
  const markers = [
    person.username,
    person.password,
    person.firstName!,
    person.lastName!,
    person.email!,
    phone,
  ];
  return { person, markers };
}

/** The markers that occur in `text`, in any case (a username is stored lower-cased). */
export function markersIn(text: string, markers: readonly string[]): string[] {
  const lower = text.toLowerCase();
  return markers.filter((m) => lower.includes(m.toLowerCase()));
}

const PG_DUMP = ['/usr/lib/postgresql/15/bin/pg_dump', 'pg_dump'].find(
  (p) => p === 'pg_dump' || existsSync(p),
)!;

/** The whole of the stack's database as `pg_dump` writes it: schema and every row. */
export async function dumpDatabase(stack: TestStack): Promise<string> {
  const { stdout } = await promisify(execFile)(PG_DUMP, ['--no-owner', stack.env.DATABASE_URL], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}

/** Every key under the stack's prefix with its value, whatever its type, as text. */
export async function dumpRedis(redis: Redis, prefix: string): Promise<string> {
  const lines: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) lines.push(`${key} ${JSON.stringify(await valueOf(redis, key))}`);
  } while (cursor !== '0');
  return lines.join('\n');
}

async function valueOf(redis: Redis, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case 'string':
      return redis.get(key);
    case 'hash':
      return redis.hgetall(key);
    case 'list':
      return redis.lrange(key, 0, -1);
    case 'set':
      return redis.smembers(key);
    case 'zset':
      return redis.zrange(key, 0, -1, 'WITHSCORES');
    case 'stream':
      return redis.xrange(key, '-', '+');
    default:
      return null;
  }
}
