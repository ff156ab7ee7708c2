import { useState } from 'react';
import { answer, api, type Schemas } from '../api';
import { hrefOf } from '../route';
import { Badge, formatTime, IfCanChange, Loading, Problem, useAction, useLoad, usePortal } from '../ui';
import { EndpointForm } from './EndpointForm';
import { SecretReveal } from './SecretReveal';

type Endpoint = Schemas['WebhookEndpoint'];

export function Health({ endpoint }: { endpoint: Endpoint }) {
  const { t, language } = usePortal();
  if (endpoint.status === 'DISABLED') return <Badge kind="failed">{t('disabled')}</Badge>;
  if (endpoint.failingSince)
    return (
      <Badge kind="failed">{t('failingSince', { time: formatTime(endpoint.failingSince, language) })}</Badge>
    );
  if (endpoint.lastSuccessAt)
    return (
      <Badge kind="succeeded">
        {t('lastSuccess', { time: formatTime(endpoint.lastSuccessAt, language) })}
      </Badge>
    );
  return <Badge kind="pending">{t('noDeliveriesYet')}</Badge>;
}

export function EndpointsPage() {
  const { t } = usePortal();
  const { value, problem, reload } = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints')), []);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  return (
    <>
      <h1>{t('endpoints')}</h1>
      {secret && <SecretReveal secret={secret} />}
      <IfCanChange>
        {adding ? (
          <EndpointForm
            busy={action.busy}
            onCancel={() => setAdding(false)}
            onSubmit={(body) =>
              action.run(
                async () => setSecret((await answer(api.POST('/api/v1/webhook-endpoints', { body }))).secret),
                () => (setAdding(false), reload()),
              )
            }
          />
        ) : (
          <button type="button" onClick={() => setAdding(true)}>
            {t('create')}
          </button>
        )}
        <Problem text={action.problem} />
      </IfCanChange>
      {!value ? (
        <Loading problem={problem} />
      ) : value.items.length === 0 ? (
        <p>{t('noItems')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('url')}</th>
              <th scope="col">{t('description')}</th>
              <th scope="col">{t('health')}</th>
            </tr>
          </thead>
          <tbody>
            {value.items.map((e) => (
              <tr key={e.id}>
                <td>
                  <a href={hrefOf({ page: 'endpoint', id: e.id })}>{e.url}</a>
                </td>
                <td>{e.description ?? ''}</td>
                <td>
                  <Health endpoint={e} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
