import { useState } from 'react';
import { answer, api, type Schemas } from '../api';
import { hrefOf } from '../route';
import { Badge, formatTime, IfCanChange, Loading, Problem, useAction, useLoad, usePortal } from '../ui';
import { EndpointForm } from './EndpointForm';
import { SecretReveal } from './SecretReveal';

type Endpoint = Schemas['WebhookEndpoint'];
type DayHealth = Schemas['WebhookEndpointHealthList']['items'][number];

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

/** The endpoint's last 24 hours in figures, as the API counts them for every endpoint at once. */
function DayFigures({ health }: { health?: DayHealth }) {
  const { t } = usePortal();
  if (!health) return null;
  const { succeeded, failed, pending } = health.deliveries;
  const p95 = health.p95DurationMs === null ? t('noAttempts') : t('p95', { ms: health.p95DurationMs });
  return (
    <p className="figures">
      {t('dayFigures', { succeeded, failed, pending })} · {p95}
    </p>
  );
}

export function EndpointsPage() {
  const { t } = usePortal();
  const { value, problem, reload } = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints')), []);
  const health = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints/health')), []);
  const healthOf = new Map(health.value?.items.map((h) => [h.endpointId, h]));
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
            fields={action.fields}
            onCancel={() => setAdding(false)}
            onSubmit={(body) =>
              action.run(
                async () => setSecret((await answer(api.POST('/api/v1/webhook-endpoints', { body }))).secret),
                () => (setAdding(false), reload(), health.reload()),
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
                  <DayFigures health={healthOf.get(e.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
