import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com) signatures: HMAC-SHA256 over
 * `${webhookId}.${timestamp}.${body}` with the secret's bytes, sent as `v1,<base64>`. Several
 * signatures may be sent space-separated (secret rotation); a receiver accepts any that verifies.
 */
export const SECRET_PREFIX = 'whsec_';
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function generateSecret(bytes = 32): string {
  return SECRET_PREFIX + randomBytes(bytes).toString('base64');
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24 || key.length > 64) throw new Error('Webhook secret must hold 24 to 64 bytes');
  return key;
}

export function computeSignature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret))
    .update(`${webhookId}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** Headers for one delivery attempt; `secrets` holds the current secret first, then any still in grace. */
export function signWebhook(input: {
  webhookId: string;
  body: string;
  secrets: string[];
  timestamp?: Date;
}): WebhookHeaders {
  if (!input.secrets.length) throw new Error('At least one secret is needed to sign');
  const timestamp = Math.floor((input.timestamp ?? new Date()).getTime() / 1000);
  return {
    'webhook-id': input.webhookId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': input.secrets
      .map((s) => computeSignature(s, input.webhookId, timestamp, input.body))
      .join(' '),
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
