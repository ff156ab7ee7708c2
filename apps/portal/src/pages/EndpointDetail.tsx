import { useState } from 'react';
import { answer, api } from '../api';
import { hrefOf } from '../route';
import { StatsChart } from '../StatsChart';
import { formatTime, IfCanChange, Loading, Problem, useAction, useLoad, usePortal } from '../ui';
import { EndpointForm } from './EndpointForm';
import { SecurityFacts } from './EndpointSecurity';
import { Health } from './Endpoints';
import { Replay } from './Replay';
import { SecretReveal } from './SecretReveal';
import { SendTest } from './SendTest';
import { Verification } from './Verification';

export function EndpointDetailPage({ id }: { id: string }) {
  const { t, language } = usePortal();
  const path = { params: { path: { endpointId: id } } };
  const {
    value: endpoint,
    problem,
    reload,
  } = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints/{endpointId}', path)), [id]);
  const [editing, setEditing] = useState(false);
  const [secret, setSecret] = useState<string>();
  const action = useAction();
  if (!endpoint) return <Loading problem={problem} />;

  const remove = () => {
    if (!window.confirm(t('confirmDelete'))) return;
    void action.run(
      () => answer(api.DELETE('/api/v1/webhook-endpoints/{endpointId}', path)),
      () => (window.location.hash = hrefOf({ page: 'endpoints' })),
    );
  };
  return (
    <>
      <p>
        <a href={hrefOf({ page: 'endpoints' })}>{t('back')}</a>
      </p>
      <h1>{endpoint.url}</h1>
      <dl className="facts">
        <dt>{t('health')}</dt>
        <dd>
          <Health endpoint={endpoint} />
        </dd>
        <dt>{t('description')}</dt>
        <dd>{endpoint.description ?? '–'}</dd>
        <dt>{t('types')}</dt>
        <dd>{endpoint.notificationTypeCodes?.join(', ') ?? t('allTypes')}</dd>
        <dt>{t('ordering')}</dt>
        <dd>{endpoint.ordering === 'SUBJECT' ? t('orderingSubject') : t('orderingNone')}</dd>
        <dt>{t('payload')}</dt>
        <dd>{endpoint.payload === 'THIN' ? t('payloadThin') : t('payloadFull')}</dd>
        <SecurityFacts endpoint={endpoint} />
        <dt>{t('created')}</dt>
        <dd>{formatTime(endpoint.createdAt, language)}</dd>
        {endpoint.disabledReason && (
          <>
            <dt>{t('disabled')}</dt>
            <dd>{endpoint.disabledReason}</dd>
          </>
        )}
      </dl>
      <p>
        <a href={hrefOf({ page: 'deliveries', endpointId: endpoint.id })}>{t('deliveries')}</a>
      </p>
      {secret && <SecretReveal secret={secret} />}
      <Verification publicKey={endpoint.publicKey} />
      <IfCanChange>
        {editing ? (
          <EndpointForm
            editing={endpoint}
            busy={action.busy}
            fields={action.fields}
            onCancel={() => setEditing(false)}
            onSubmit={(body) =>
              action.run(
                () =>
                  answer(
                    api.PATCH('/api/v1/webhook-endpoints/{endpointId}', {
                      ...path,
                      body: {
                        ordering: body.ordering,
                        payload: body.payload,
                        rateLimit: body.rateLimit,
                        signatureSchemes: body.signatureSchemes,
                        filter: body.filter,
                        tls: body.tls,
                      },
                    }),
                  ),
                () => (setEditing(false), reload()),
              )
            }
          />
        ) : (
          <div className="actions">
            <button type="button" onClick={() => setEditing(true)}>
              {t('edit')}
            </button>
            <button
              type="button"
              onClick={() =>
                action.run(
                  () =>
                    answer(
                      endpoint.status === 'ACTIVE'
                        ? api.POST('/api/v1/webhook-endpoints/{endpointId}/disable', path)
                        : api.POST('/api/v1/webhook-endpoints/{endpointId}/enable', path),
                    ),
                  reload,
                )
              }
            >
              {endpoint.status === 'ACTIVE' ? t('disable') : t('enable')}
            </button>
            <button
              type="button"
              onClick={() =>
                action.run(async () => {
                  const rotated = await answer(
                    api.POST('/api/v1/webhook-endpoints/{endpointId}/rotate-secret', path),
                  );
                  setSecret(rotated.secret);
                }, reload)
              }
            >
              {t('rotateSecret')}
            </button>
            <button type="button" className="danger" onClick={remove}>
              {t('delete')}
            </button>
          </div>
        )}
        <Problem text={action.problem} />
      </IfCanChange>
      {endpoint.status === 'ACTIVE' && <SendTest endpointId={endpoint.id} />}
      {endpoint.status === 'ACTIVE' && <Replay endpointId={endpoint.id} />}
      <StatsChart endpointId={endpoint.id} />
    </>
  );
}
