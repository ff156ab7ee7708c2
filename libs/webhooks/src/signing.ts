import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  createSecretKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
  sign,
  timingSafeEqual,
} from 'node:crypto';
import { KeptValues } from './kept-values';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signatures over
 * `${webhookId}.${timestamp}.${body}`: `v1,<base64>` is HMAC-SHA256 with the secret's bytes,
 * `v1a,<base64>` is ed25519 with the endpoint's private key. Several signatures may be sent
 * space-separated (rotation, or both schemes); a receiver accepts any that verifies.
 */
export const SECRET_PREFIX = 'whsec_';
/** ed25519 private key: base64 of the 64-byte NaCl/libsodium form (32-byte seed, then the public key). */
export const SIGNING_KEY_PREFIX = 'whsk_';
/** ed25519 public key: base64 of its 32 raw bytes (RFC 8032). */
export const PUBLIC_KEY_PREFIX = 'whpk_';

export const SIGNATURE_SCHEMES = ['v1', 'v1a'] as const;
export type SignatureScheme = (typeof SIGNATURE_SCHEMES)[number];

/** PKCS#8 DER of an ed25519 private key is this prefix and the 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function generateSecret(bytes = 32): string {
  return SECRET_PREFIX + randomBytes(bytes).toString('base64');
}

/** Keys made from secrets, kept: Node turns a raw HMAC key into a key object on every call, 15 µs. */
const hmacKeys = new KeptValues<KeyObject>(1000);
const ed25519Keys = new KeptValues<KeyObject>(1000);

function secretKey(secret: string): KeyObject {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24 || key.length > 64) throw new Error('Webhook secret must hold 24 to 64 bytes');
  return createSecretKey(key);
}

export interface SigningKeyPair {
  /** whsk_…: keep sealed. */
  signingKey: string;
  /** whpk_…: published to subscribers. */
  publicKey: string;
}

export function generateSigningKeyPair(): SigningKeyPair {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
  return keyPairOf(Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url'));
}

/** The key pair of a given 32-byte seed: the same pair every time, for documented examples. */
export function signingKeyPairFromSeed(seed: Buffer): SigningKeyPair {
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return keyPairOf(seed, Buffer.from(jwk.x!, 'base64url'));
}

function keyPairOf(seed: Buffer, raw: Buffer): SigningKeyPair {
  return {
    signingKey: SIGNING_KEY_PREFIX + Buffer.concat([seed, raw]).toString('base64'),
    publicKey: PUBLIC_KEY_PREFIX + raw.toString('base64'),
  };
}

function signingKeyObject(signingKey: string): KeyObject {
  if (!signingKey.startsWith(SIGNING_KEY_PREFIX)) throw new Error('Signing key must start with whsk_');
  const bytes = Buffer.from(signingKey.slice(SIGNING_KEY_PREFIX.length), 'base64');
  if (bytes.length !== 64) throw new Error('Signing key must hold 64 bytes (seed and public key)');
  return createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, bytes.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** `v1a,<base64 ed25519 signature>` of the same content `v1` signs. */
export function computeAsymmetricSignature(
  signingKey: string,
  webhookId: string,
  timestamp: number,
  body: string,
): string {
  const signature = sign(
    null,
    Buffer.from(`${webhookId}.${timestamp}.${body}`),
    ed25519Keys.get(signingKey, signingKeyObject),
  );
  return `v1a,${signature.toString('base64')}`;
}

export function computeSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', hmacKeys.get(secret, secretKey))
    .update(`${webhookId}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/**
 * Headers for one delivery attempt: a `v1` signature per HMAC secret, then a `v1a` one per ed25519
 * signing key; each list holds the current key first, then any still in grace.
 */
export function signWebhook(input: {
  webhookId: string;
  body: string;
  secrets: string[];
  signingKeys?: string[];
  timestamp?: Date;
}): WebhookHeaders {
  const signingKeys = input.signingKeys ?? [];
  if (!input.secrets.length && !signingKeys.length) throw new Error('At least one key is needed to sign');
  const timestamp = Math.floor((input.timestamp ?? new Date()).getTime() / 1000);
  const signatures = [
    ...input.secrets.map((s) => computeSignature(s, input.webhookId, timestamp, input.body)),
    ...signingKeys.map((k) => computeAsymmetricSignature(k, input.webhookId, timestamp, input.body)),
  ];
  return {
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.join(' '),
  };
}

export class WebhookVerificationError extends Error {}

/** Verifies as a subscriber would: timestamp within tolerance, and any v1 signature matching. */
export function verifyWebhook(input: {
  secret: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  now?: Date;
  toleranceSeconds?: number;
}): void {
  const header = (name: string) => {
    const v = input.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = header('webhook-id');
  const ts = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !ts || !signatures) throw new WebhookVerificationError('Missing webhook headers');
  const timestamp = Number(ts);
  if (!Number.isInteger(timestamp)) throw new WebhookVerificationError('Invalid webhook-timestamp');
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const tolerance = input.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - timestamp) > tolerance)
    throw new WebhookVerificationError('Timestamp outside tolerance');
  const expected = Buffer.from(computeSignature(input.secret, id, timestamp, input.body).slice(3), 'base64');
  const ok = signatures.split(' ').some((candidate) => {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!ok) throw new WebhookVerificationError('No matching signature');
}
