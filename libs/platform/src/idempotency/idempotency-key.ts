import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/** How long a key stays bound to its request and answer. */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
/** How long a claim holds before a retry may take it over (its process is taken for dead). */
export const IDEMPOTENCY_CLAIM_LOCK_SECONDS = 60;
/** What a client is told to wait before retrying a request whose twin is still running. */
export const IDEMPOTENCY_IN_FLIGHT_RETRY_AFTER_SECONDS = 1;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** Response headers replayed with a stored answer; the rest belong to the request that sends it. */
export const REPLAYED_HEADERS = ['content-type', 'content-language', 'location'] as const;

/**
 * The key of an `Idempotency-Key` header, or undefined when it is malformed. The draft makes the
 * value a Structured Field string (`"abc"`); the bare form (`abc`) is accepted too, as most clients
 * send it. Either way the key is 1 to 255 printable ASCII characters.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  let key = header;
  if (header.length >= 2 && header.startsWith('"') && header.endsWith('"')) {
    const inner = header.slice(1, -1);
    // An sf-string escapes only `"` and `\`; anything else after a backslash, or a bare quote, is malformed.
    if (!/^(?:[^"\\]|\\["\\])*$/.test(inner)) return undefined;
    key = inner.replace(/\\(["\\])/g, '$1');
  }
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return undefined;
  return /^[\x20-\x7e]+$/.test(key) ? key : undefined;
}

/** JSON with the keys of every object sorted: the same document however its members were ordered or spaced. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * What the table keeps of a key: its SHA-256, never the key itself. The key is the client's
 * secret for what is stored under it (see `requestFingerprint` and `sealAnswerBody`).
 */
export function keyDigest(key: string): string {
  return createHash('sha256').update(`fincore-idempotency-key:${key}`).digest('hex');
}

/**
 * What makes two requests under one key "the same request": method, target (path with its ids
 * and query) and the parsed body, re-serialised canonically. An HMAC keyed with the key, so that
 * the stored fingerprint of a body holding a password cannot be tested against guesses without it.
 */
export function requestFingerprint(key: string, method: string, target: string, body: unknown): string {
  return createHmac('sha256', key)
    .update(`${method.toUpperCase()} ${target}\n${canonicalJson(body)}`)
    .digest('hex');
}

const SEAL_VERSION = 'v1';

function sealingKey(key: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, '', 'fincore idempotency answer', 32));
}

/**
 * The answer's body encrypted (AES-256-GCM) with a key derived from the Idempotency-Key: a body
 * that shows a secret once (a webhook signing secret) is no secret in the table to a reader who
 * lacks the key.
 */
export function sealAnswerBody(key: string, body: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(key), iv);
  const sealed = Buffer.concat([cipher.update(body, 'utf8'), cipher.final()]);
  return `${SEAL_VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`;
}

export function openAnswerBody(key: string, sealed: string): string {
  const [version, data] = sealed.split('.');
  if (version !== SEAL_VERSION || !data) throw new Error('Unknown format of a stored idempotent answer');
  const bytes = Buffer.from(data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(key), bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body as it was sent (serialised JSON; sealed in the table), or null for an empty one. */
  body: string | null;
}

/** The row of a key as a retry finds it, with the database's clock at that moment. */
export interface IdempotencyKeyRecord {
  claimId: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  lockedUntil: Date;
  expiresAt: Date;
  answer: StoredAnswer | null;
  checkedAt: Date;
}

export type ExistingKeyDecision =
  /** The same request was answered: send that answer again. */
  | { kind: 'replay'; answer: StoredAnswer }
  /** The same request is still running: 409, retry later. */
  | { kind: 'in_flight' }
  /** The key belongs to another request: 422. */
  | { kind: 'mismatch' }
  /** The key's time is over, or its claim was abandoned: claim it anew and run the request. */
  | { kind: 'take_over' };

/** What a request does with a key that is already in the table. */
export function decideOnExistingKey(record: IdempotencyKeyRecord, fingerprint: string): ExistingKeyDecision {
  const now = record.checkedAt.getTime();
  if (record.expiresAt.getTime() <= now) return { kind: 'take_over' };
  if (record.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (record.status === 'completed' && record.answer) return { kind: 'replay', answer: record.answer };
  if (record.lockedUntil.getTime() <= now) return { kind: 'take_over' };
  return { kind: 'in_flight' };
}

/**
 * Whether an answer is final and is kept for replay: successes and the caller's deterministic
 * errors. Server errors and answers that depend on the moment (401, 403, 408, 425, 429) release
 * the key so that a retry runs the request again.
 */
export function isFinalAnswer(status: number): boolean {
  if (status >= 500) return false;
  return ![401, 403, 408, 425, 429].includes(status);
}
