import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSecret, generateSigningKeyPair, signWebhook, WebhookHeaders } from './signing';

type Verify = (key: string, headers: WebhookHeaders, rawBody: string) => boolean;

/** The receiver functions docs/notifications.md shows subscribers, run as they would copy them. */
function documented(name: string): Verify {
  const docs = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'notifications.md'), 'utf8');
  const block = [...docs.matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((code) => code.includes(`function ${name}(`));
  if (!block) throw new Error(`docs/notifications.md shows no ${name}`);
  return new Function('require', `${block}\nreturn ${name};`)(require) as Verify;
}

describe('the receivers docs/notifications.md shows', () => {
  const body = JSON.stringify({ id: 'evt-1', type: 'PERSON_UPDATED', data: { changedFields: ['phone'] } });

  it('verifyV1 accepts what the notifier signs with the secret, and nothing changed or stale', () => {
    const sut = documented('verifyV1');
    const secret = generateSecret();
    const headers = signWebhook({ webhookId: 'evt-1', body, secrets: [generateSecret(), secret] });
    expect(sut(secret, headers, body)).toBe(true);
    expect(sut(secret, headers, body.replace('phone', 'email'))).toBe(false);
    expect(sut(generateSecret(), headers, body)).toBe(false);
    const stale = signWebhook({
      webhookId: 'evt-1',
      body,
      secrets: [secret],
      timestamp: new Date(Date.now() - 600_000),
    });
    expect(sut(secret, stale, body)).toBe(false);
  });

  it('verifyV1a accepts what the notifier signs with the key pair, and nothing changed', () => {
    const sut = documented('verifyV1a');
    const { signingKey, publicKey } = generateSigningKeyPair();
    const headers = signWebhook({ webhookId: 'evt-1', body, secrets: [], signingKeys: [signingKey] });
    expect(sut(publicKey, headers, body)).toBe(true);
    expect(sut(publicKey, headers, `${body} `)).toBe(false);
    expect(sut(generateSigningKeyPair().publicKey, headers, body)).toBe(false);
  });
});
