import { createHash, timingSafeEqual } from 'node:crypto';

/** ACTIVE credentials authenticate; INVALIDATED ones are refused until new ones are set. */
export const CredentialsStatus = { Active: 'ACTIVE', Invalidated: 'INVALIDATED' } as const;
export type CredentialsStatus = (typeof CredentialsStatus)[keyof typeof CredentialsStatus];

export interface CredentialsState {
  status: CredentialsStatus;
  invalidatedAt: Date | null;
}

/** Usernames are compared case- and compatibility-insensitively ("Demo.User" is "demo.user"). */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/** Same username, compared without an early exit so the comparison time tells nothing. */
export function isSameUsername(storedKey: string, given: string): boolean {
  const a = createHash('sha256').update(storedKey).digest();
  const b = createHash('sha256').update(usernameKey(given)).digest();
  return timingSafeEqual(a, b);
}

/** One canonical form, so a password typed on another keyboard or OS still matches (NIST SP 800-63B 5.1.1.2). */
export function normalizePassword(password: string): string {
  return password.normalize('NFC');
}

export type InvalidationOutcome =
  | { changed: true; state: CredentialsState; changedFields: string[] }
  | { changed: false; state: CredentialsState };

/**
 * Invalidating active credentials records when; invalidating invalidated ones changes nothing and
 * keeps the first time, which makes the operation safe to repeat.
 */
export function invalidateCredentials(current: CredentialsState, now: Date): InvalidationOutcome {
  if (current.status === CredentialsStatus.Invalidated) return { changed: false, state: current };
  return {
    changed: true,
    state: { status: CredentialsStatus.Invalidated, invalidatedAt: now },
    changedFields: ['credentials.status', 'credentials.invalidatedAt'],
  };
}

/**
 * New credentials may replace only invalidated ones: active credentials are invalidated first, so
 * every change of credentials leaves a trace of why the old ones stopped working.
 */
export function canReplaceCredentials(current: CredentialsState): boolean {
  return current.status === CredentialsStatus.Invalidated;
}

/** What changed when new credentials replace invalidated ones. */
export function replacementChangedFields(usernameChanged: boolean): string[] {
  return [
    'credentials.status',
    'credentials.invalidatedAt',
    ...(usernameChanged ? ['credentials.username'] : []),
    'credentials.password',
  ];
}

export interface HashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * A stored hash is re-computed at the next successful authentication when it is weaker than the
 * configured cost (or not argon2id), so raising the cost upgrades every active person over time.
 * A stronger hash is kept: lowering the setting never weakens stored hashes.
 */
export function needsRehash(
  stored: HashCost & { algorithm: number },
  wanted: HashCost,
  argon2idAlgorithm: number,
): boolean {
  return (
    stored.algorithm !== argon2idAlgorithm ||
    stored.memoryCost < wanted.memoryCost ||
    stored.timeCost < wanted.timeCost
  );
}
