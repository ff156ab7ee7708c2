import { useState } from 'react';
import { answer, api } from '../api';
import { IfCanChange, Loading, useLoad, usePortal } from '../ui';
import { SendTest } from './SendTest';

/** The catalog as the API lists it: whatever types it returns, with an example of their data and its schema. */
export function EventTypesPage() {
  const { t } = usePortal();
  const { value, problem } = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  const endpoints = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints')), []);
  const active = endpoints.value?.items.filter((e) => e.status === 'ACTIVE') ?? [];
  const [target, setTarget] = useState('');
  const endpointId = target || active[0]?.id || '';
  return (
    <>
      <h1>{t('eventTypes')}</h1>
      {active.length > 0 && (
        <IfCanChange>
          <section className="card" aria-labelledby="test-title">
            <h2 id="test-title">WEBHOOK_TEST</h2>
            <label>
              {t('endpoint')}
              <select value={endpointId} onChange={(e) => setTarget(e.target.value)}>
                {active.map((e) => (
                  <option key={e.id} value={e.id}>
                    {e.url}
                  </option>
                ))}
              </select>
            </label>
            <SendTest key={endpointId} endpointId={endpointId} />
          </section>
        </IfCanChange>
      )}
      {!value ? (
        <Loading problem={problem} />
      ) : (
        value.items.map((type) => (
          <article key={type.code} className="card">
            <h2>{type.code}</h2>
            <p>{type.description}</p>
            <details open>
              <summary>{t('example')}</summary>
              <pre data-testid={`example-${type.code}`}>{JSON.stringify(type.example, null, 2)}</pre>
            </details>
            <details>
              <summary>{t('schema')}</summary>
              <pre>{JSON.stringify(type.dataSchema, null, 2)}</pre>
            </details>
          </article>
        ))
      )}
    </>
  );
}
