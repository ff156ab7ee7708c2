import { shouldDisableEndpoint } from './retry-policy';

/** What a failed attempt does to its endpoint, beyond counting the streak. */
export type HealthChange =
  | { kind: 'disable'; cause: 'gone' | 'failing'; reason: string }
  | { kind: 'warn_failing'; disablesAt: Date }
  | { kind: 'none' };

/**
 * After a failed attempt of an active endpoint: a 410 or a streak as long as the disable period
 * disables it; a streak of half that, not reported yet, is reported once, so the tenant can act
 * before the endpoint is disabled.
 */
export function healthAfterFailure(input: {
  gone: boolean;
  statusCode: number | null;
  failingSince: Date;
  failingNotified: boolean;
  now: Date;
  disableAfterHours: number;
}): HealthChange {
  const { failingSince, now, disableAfterHours } = input;
  if (input.gone)
    return {
      kind: 'disable',
      cause: 'gone',
      reason: `the receiver answered ${input.statusCode ?? 410} Gone`,
    };
  if (shouldDisableEndpoint(failingSince, now, disableAfterHours)) {
    return {
      kind: 'disable',
      cause: 'failing',
      reason: `failing without a success since ${failingSince.toISOString()} (limit ${disableAfterHours} h)`,
    };
  }
  if (!input.failingNotified && shouldDisableEndpoint(failingSince, now, disableAfterHours / 2)) {
    return {
      kind: 'warn_failing',
      disablesAt: new Date(failingSince.getTime() + disableAfterHours * 3600 * 1000),
    };
  }
  return { kind: 'none' };
}
