import { createPublicKey, verify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  computeAsymmetricSignature,
  generateSecret,
  generateSigningKeyPair,
  signingKeyPairFromSeed,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from './signing';
import { SecretBox } from './secret-box';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'PERSON_UPDATED', data: { personId: 'p-1' } });
  const secret = generateSecret();

  it('produces signatures that the independent standardwebhooks package verifies', () => {
    const headers = signWebhook({ webhookId: 'msg_1', body, secrets: [secret] });
    const verified = new Webhook(secret).verify(body, { ...headers });
    expect(verified).toEqual(JSON.parse(body));
  });

  it('signs with every secret during rotation, and either secret verifies', () => {
    const next = generateSecret();
    const headers = signWebhook({ webhookId: 'msg_2', body, secrets: [next, secret] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(next).verify(body, { ...headers })).not.toThrow();
  });

  it('fails on a tampered body', () => {
    const headers = signWebhook({ webhookId: 'msg_3', body, secrets: [secret] });
    const tampered = body.replace('p-1', 'p-2');
    expect(() => new Webhook(secret).verify(tampered, { ...headers })).toThrow();
    expect(() => verifyWebhook({ secret, body: tampered, headers: { ...headers } })).toThrow(
      WebhookVerificationError,
    );
  });

  it('fails with the wrong secret', () => {
    const headers = signWebhook({ webhookId: 'msg_4', body, secrets: [secret] });
    const other = generateSecret();
    expect(() => new Webhook(other).verify(body, { ...headers })).toThrow();
    expect(() => verifyWebhook({ secret: other, body, headers: { ...headers } })).toThrow(
      WebhookVerificationError,
    );
  });

  it('fails on a stale timestamp', () => {
    const headers = signWebhook({
      webhookId: 'msg_5',
      body,
      secrets: [secret],
      timestamp: new Date(Date.now() - 10 * 60_000),
    });
    expect(() => new Webhook(secret).verify(body, { ...headers })).toThrow();
    expect(() => verifyWebhook({ secret, body, headers: { ...headers } })).toThrow(/tolerance/);
  });

  it('verifies its own signatures, as a subscriber using this library would', () => {
    const headers = signWebhook({ webhookId: 'msg_6', body, secrets: [secret] });
    expect(() => verifyWebhook({ secret, body, headers: { ...headers } })).not.toThrow();
  });
});

describe('SecretBox', () => {
  const sut = new SecretBox(SecretBox.developmentKey('test'));

  it('round-trips and never stores the plaintext', () => {
    const secret = generateSecret();
    const sealed = sut.seal(secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(sut.open(sealed)).toBe(secret);
  });

  it('refuses a sealed value that was altered, or opened with another key', () => {
    const sealed = sut.seal('whsec_abc');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => sut.open(parts.join('.'))).toThrow();
    expect(() => new SecretBox(SecretBox.developmentKey('other')).open(sealed)).toThrow();
  });

  it('rejects keys that are not 32 bytes', () => {
    expect(() => new SecretBox('short')).toThrow(/32 bytes/);
  });
});

describe('ed25519 (v1a) signing', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'PERSON_UPDATED', data: { personId: 'p-1' } });

  /** A subscriber's check with node:crypto alone, from the published whpk_ key. */
  const verifiesWith = (publicKey: string, headers: Record<string, string>, signed = body) => {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey.slice(5), 'base64').toString('base64url') },
      format: 'jwk',
    });
    const content = Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${signed}`);
    return headers['webhook-signature']
      .split(' ')
      .filter((s) => s.startsWith('v1a,'))
      .some((s) => verify(null, content, key, Buffer.from(s.slice(4), 'base64')));
  };

  it('generates a whsk_/whpk_ pair of raw key bytes', () => {
    const sut = generateSigningKeyPair();
    expect(sut.signingKey).toMatch(/^whsk_/);
    expect(sut.publicKey).toMatch(/^whpk_/);
    expect(Buffer.from(sut.signingKey.slice(5), 'base64')).toHaveLength(64);
    expect(Buffer.from(sut.publicKey.slice(5), 'base64')).toHaveLength(32);
    // The NaCl form ends with the public key.
    expect(Buffer.from(sut.signingKey.slice(5), 'base64').subarray(32)).toEqual(
      Buffer.from(sut.publicKey.slice(5), 'base64'),
    );
  });

  it('derives the same pair from the same seed, one that signs as a generated pair does', () => {
    const seed = Buffer.alloc(32, 9);
    const sut = signingKeyPairFromSeed(seed);
    expect(signingKeyPairFromSeed(Buffer.from(seed))).toEqual(sut);
    expect(signingKeyPairFromSeed(Buffer.alloc(32, 8)).publicKey).not.toBe(sut.publicKey);
    expect(Buffer.from(sut.signingKey.slice(5), 'base64').subarray(0, 32)).toEqual(seed);
    const headers = {
      ...signWebhook({ webhookId: 'msg_6', body, secrets: [], signingKeys: [sut.signingKey] }),
    };
    expect(verifiesWith(sut.publicKey, headers)).toBe(true);
  });

  it('signs v1a that node:crypto verifies with the public key, and nothing else verifies', () => {
    const pair = generateSigningKeyPair();
    const headers = {
      ...signWebhook({ webhookId: 'msg_7', body, secrets: [], signingKeys: [pair.signingKey] }),
    };
    expect(headers['webhook-signature']).toMatch(/^v1a,[A-Za-z0-9+/]{86}==$/);
    expect(verifiesWith(pair.publicKey, headers)).toBe(true);
    expect(verifiesWith(pair.publicKey, headers, body.replace('p-1', 'p-2'))).toBe(false);
    expect(verifiesWith(generateSigningKeyPair().publicKey, headers)).toBe(false);
  });

  it('sends v1 and v1a side by side while both schemes are on, each verifiable on its own', () => {
    const secret = generateSecret();
    const pair = generateSigningKeyPair();
    const headers = {
      ...signWebhook({ webhookId: 'msg_8', body, secrets: [secret], signingKeys: [pair.signingKey] }),
    };
    expect(headers['webhook-signature'].split(' ').map((s) => s.split(',')[0])).toEqual(['v1', 'v1a']);
    expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(verifiesWith(pair.publicKey, headers)).toBe(true);
  });

  it('signs with the previous key pair too during a rotation', () => {
    const current = generateSigningKeyPair();
    const previous = generateSigningKeyPair();
    const headers = {
      ...signWebhook({
        webhookId: 'msg_9',
        body,
        secrets: [],
        signingKeys: [current.signingKey, previous.signingKey],
      }),
    };
    expect(verifiesWith(current.publicKey, headers)).toBe(true);
    expect(verifiesWith(previous.publicKey, headers)).toBe(true);
  });

  it('refuses to sign with no key at all, or with a malformed signing key', () => {
    expect(() => signWebhook({ webhookId: 'msg_10', body, secrets: [] })).toThrow(/key/);
    expect(() => computeAsymmetricSignature('whsk_AAAA', 'msg_11', 1, body)).toThrow(/64 bytes/);
  });
});
