import { createHash } from 'node:crypto';

const TOMBSTONE_PREFIX = 'erased:';

/**
 * What an erased person's username becomes: a digest of its lookup key within the tenant, so the
 * username stays taken (a newcomer under it would be taken for the erased person by every
 * subscriber that keyed its records on it) without being kept in clear.
 */
export function usernameTombstone(tenantId: string, usernameKey: string): string {
  return TOMBSTONE_PREFIX + createHash('sha256').update(`${tenantId}\n${usernameKey}`).digest('hex');
}

/** The lookup keys under which a username is taken: its own, and its tombstone. */
export function takenUsernameKeys(tenantId: string, usernameKey: string): [string, string] {
  return [usernameKey, usernameTombstone(tenantId, usernameKey)];
}

/** Who erased a person, when, and in which request; no personal data. */
export interface ErasureRecord {
  erasedAt: Date;
  tokenId: string;
  requestId: string | null;
}

export function isErased(person: { erasedAt: Date | null }): boolean {
  return person.erasedAt !== null;
}
