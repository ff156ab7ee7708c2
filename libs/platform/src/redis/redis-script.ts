import type { RedisClient } from './redis-connection';

type ScriptArgument = string | number;

/**
 * A Lua script as a function: one atomic round trip, the same on every replica. Defined once per
 * connection and then run by EVALSHA, so the script text is not sent with every call.
 */
export function redisScript<Result>(
  redis: RedisClient,
  name: string,
  numberOfKeys: number,
  lua: string,
): (...keysThenArgs: ScriptArgument[]) => Promise<Result> {
  if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
  const commands = redis as unknown as Record<string, (...args: ScriptArgument[]) => Promise<Result>>;
  return (...keysThenArgs) => commands[name].call(redis, ...keysThenArgs);
}
