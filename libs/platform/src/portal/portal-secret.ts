import { hash, randomBytes } from 'node:crypto';

/** A link's code and a session's cookie value: 256 random bits each, unguessable. */
export function generatePortalSecret(): string {
  return randomBytes(32).toString('base64url');
}

const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function looksLikePortalSecret(value: string): boolean {
  return SECRET_PATTERN.test(value);
}

/** 256 bits of entropy need no key derivation: SHA-256 keeps the lookup cheap. */
export function portalSecretDigest(secret: string): string {
  return hash('sha256', secret, 'hex');
}
