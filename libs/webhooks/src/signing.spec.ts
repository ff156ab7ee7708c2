import { Webhook } from 'standardwebhooks';
import { generateSecret, signWebhook, verifyWebhook, WebhookVerificationError } from './signing';
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
