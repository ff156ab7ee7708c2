import { hash, randomBytes } from 'node:crypto';

const TOKEN_PATTERN = /^fct_[A-Za-z0-9_-]{43}$/;

/** A new opaque token: 256 random bits, prefixed so leaked tokens are easy to recognise in scans. */
export function generateToken(): string {
  return `fct_${randomBytes(32).toString('base64url')}`;
}

export function looksLikeToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/**
 * Tokens carry 256 bits of entropy, so a fast hash is enough (no KDF needed) and lookups stay cheap.
 * One-shot: every request hashes its token, and a Hash object per call cost more than the digest.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function tokenPrefix(token: string): string {
  return token.slice(0, 10);
}
