import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { KeptValues } from './kept-values';

/** Opened secrets kept per replica: the notifier opens its endpoints' secrets on every attempt. */
const OPENED_KEPT = 1000;

/**
 * Encrypts webhook signing secrets at rest (AES-256-GCM). The key comes from the environment
 * (WEBHOOK_SECRET_KEY, 32 bytes as base64 or hex); stored form: `v1.<iv>.<tag>.<ciphertext>`.
 */
export class SecretBox {
  private readonly key: KeyObject;
  /** Sealed form to plaintext: a sealed form (random IV) only ever opens to one secret. */
  private readonly opened = new KeptValues<string>(OPENED_KEPT);

  constructor(key: string) {
    this.key = createSecretKey(SecretBox.parseKey(key));
  }

  static parseKey(key: string): Buffer {
    const candidates = [
      /^[0-9a-fA-F]{64}$/.test(key) ? Buffer.from(key, 'hex') : undefined,
      Buffer.from(key, 'base64'),
    ];
    const found = candidates.find((b) => b?.length === 32);
    if (!found) throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
    return found;
  }

  /** A deterministic development key derived from a label; never for production. */
  static developmentKey(label: string): string {
    return createHash('sha256').update(`fincore-development-key:${label}`).digest('base64');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      ciphertext.toString('base64'),
    ].join('.');
  }

  open(sealed: string): string {
    return this.opened.get(sealed, (s) => this.decrypt(s));
  }

  private decrypt(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined)
      throw new Error('Unrecognised sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString(
      'utf8',
    );
  }
}
