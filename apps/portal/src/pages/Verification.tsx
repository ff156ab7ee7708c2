import { useState } from 'react';
import { usePortal } from '../ui';

/** Receivers checking signatures with the Standard Webhooks libraries; the secret is the whsec_… one. */
const SNIPPETS: Array<[language: string, code: string]> = [
  [
    'Node.js (npm install standardwebhooks)',
    `import { Webhook } from 'standardwebhooks';

const wh = new Webhook(process.env.WEBHOOK_SECRET); // whsec_…
// rawBody: the request body exactly as received; throws unless signed and recent
const event = wh.verify(rawBody, request.headers);`,
  ],
  [
    'Python (pip install standardwebhooks)',
    `import os
from standardwebhooks.webhooks import Webhook

wh = Webhook(os.environ["WEBHOOK_SECRET"])  # whsec_…
# raw_body: the request body exactly as received; raises unless signed and recent
event = wh.verify(raw_body, headers)`,
  ],
  [
    'Go (go get github.com/standard-webhooks/libraries)',
    `import standardwebhooks "github.com/standard-webhooks/libraries/go"

wh, err := standardwebhooks.NewWebhook(os.Getenv("WEBHOOK_SECRET")) // whsec_…
// payload: the request body exactly as received; an error unless signed and recent
err = wh.Verify(payload, r.Header)`,
  ],
];

/** How a receiver checks this endpoint's webhooks: its ed25519 public key, and code to copy. */
export function Verification({ publicKey }: { publicKey: string | null }) {
  const { t } = usePortal();
  const [copied, setCopied] = useState<string>();
  const copy = (language: string, code: string) =>
    void navigator.clipboard.writeText(code).then(() => setCopied(language));
  return (
    <section className="card" aria-labelledby="verification">
      <h2 id="verification">{t('verification')}</h2>
      {publicKey && (
        <p>
          {t('publicKey')}: <code data-testid="public-key">{publicKey}</code>
        </p>
      )}
      {SNIPPETS.map(([language, code]) => (
        <details key={language}>
          <summary>{language}</summary>
          <pre>
            <code>{code}</code>
          </pre>
          <button type="button" onClick={() => copy(language, code)}>
            {copied === language ? t('copied') : t('copy')}
          </button>
        </details>
      ))}
    </section>
  );
}
