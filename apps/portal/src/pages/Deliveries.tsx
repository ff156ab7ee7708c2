import { useState } from 'react';
import { answer, api, type Schemas } from '../api';
import type { paths } from '../schema';
import { hrefOf } from '../route';
import { Badge, formatTime, Loading, useLoad, usePortal } from '../ui';

type Status = Schemas['WebhookDelivery']['status'];
type Query = NonNullable<paths['/api/v1/webhook-deliveries']['get']['parameters']['query']>;
const STATUSES: Status[] = ['PENDING', 'SUCCEEDED', 'FAILED'];

export function statusWord(status: Status, t: ReturnType<typeof usePortal>['t']) {
  return status === 'SUCCEEDED' ? t('succeeded') : status === 'FAILED' ? t('failed') : t('pending');
}

/** Deliveries newest first, filtered by status, event type and endpoint, a page at a time. */
export function DeliveriesPage({ endpointId: initialEndpoint }: { endpointId?: string }) {
  const { t, language } = usePortal();
  const [status, setStatus] = useState<Status | ''>('');
  const [type, setType] = useState('');
  const [endpointId, setEndpointId] = useState(initialEndpoint ?? '');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const endpoints = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints')), []);
  const types = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  const page = useLoad(
    () =>
      answer(
        api.GET('/api/v1/webhook-deliveries', {
          params: {
            query: {
              limit: '20',
              ...(status ? { status } : {}),
              // Whatever the catalog lists now, beyond the enum of the document the portal was built from.
              ...(type ? { notificationTypeCode: type as Query['notificationTypeCode'] } : {}),
              ...(endpointId ? { endpointId } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
        }),
      ),
    [status, type, endpointId, cursor],
  );
  const filter = (apply: () => void) => {
    apply();
    setCursors([]);
  };
  const urlOf = (id: string) => endpoints.value?.items.find((e) => e.id === id)?.url ?? id;

  return (
    <>
      <h1>{t('deliveries')}</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('status')}
          <select value={status} onChange={(e) => filter(() => setStatus(e.target.value as Status | ''))}>
            <option value="">{t('any')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusWord(s, t)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('eventType')}
          <select value={type} onChange={(e) => filter(() => setType(e.target.value))}>
            <option value="">{t('any')}</option>
            {types.value?.items.map((ty) => (
              <option key={ty.code} value={ty.code}>
                {ty.code}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('endpoint')}
          <select value={endpointId} onChange={(e) => filter(() => setEndpointId(e.target.value))}>
            <option value="">{t('any')}</option>
            {endpoints.value?.items.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </select>
        </label>
      </form>
      {!page.value ? (
        <Loading problem={page.problem} />
      ) : page.value.items.length === 0 ? (
        <p>{t('noItems')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('eventType')}</th>
              <th scope="col">{t('endpoint')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('attempts')}</th>
            </tr>
          </thead>
          <tbody>
            {page.value.items.map((d) => (
              <tr key={d.id}>
                <td>
                  <a href={hrefOf({ page: 'delivery', id: d.id })}>{formatTime(d.createdAt, language)}</a>
                </td>
                <td>{d.notificationTypeCode}</td>
                <td>{urlOf(d.endpointId)}</td>
                <td>
                  <Badge kind={d.status}>{statusWord(d.status, t)}</Badge>
                </td>
                <td>{d.attemptCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="actions">
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors([])}>
            {t('firstPage')}
          </button>
        )}
        {page.value?.nextCursor && (
          <button type="button" onClick={() => setCursors([...cursors, page.value!.nextCursor!])}>
            {t('nextPage')}
          </button>
        )}
      </div>
    </>
  );
}
