import { answer, api } from '../api';
import { Loading, useLoad, usePortal } from '../ui';

/** The catalog as the API lists it: whatever types it returns, with their data schemas. */
export function EventTypesPage() {
  const { t } = usePortal();
  const { value, problem } = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  return (
    <>
      <h1>{t('eventTypes')}</h1>
      {!value ? (
        <Loading problem={problem} />
      ) : (
        value.items.map((type) => (
          <article key={type.code} className="card">
            <h2>{type.code}</h2>
            <p>{type.description}</p>
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
