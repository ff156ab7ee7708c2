import { useState } from 'react';
import { usePortal } from '../ui';

/** A just-issued signing secret, hidden until the subscriber asks to see it. */
export function SecretReveal({ secret }: { secret: string }) {
  const { t } = usePortal();
  const [shown, setShown] = useState(false);
  return (
    <div className="notice" role="status">
      <p>
        <strong>{t('secret')}</strong>: {t('secretOnce')}
      </p>
      <p>
        <code data-testid="secret">{shown ? secret : '•'.repeat(24)}</code>{' '}
        <button type="button" onClick={() => setShown(!shown)}>
          {shown ? t('hideSecret') : t('revealSecret')}
        </button>
      </p>
    </div>
  );
}
