import { answer, api } from '../api';
import { hrefOf } from '../route';
import { Badge, formatTime, IfCanChange, Loading, Problem, useAction, useLoad, usePortal } from '../ui';
import { statusWord } from './Deliveries';

/** One delivery with every attempt; Retry now where the API allows it. */
export function DeliveryDetailPage({ id }: { id: string }) {
  const { t, language } = usePortal();
  const path = { params: { path: { deliveryId: id } } };
  const {
    value: d,
    problem,
    reload,
  } = useLoad(() => answer(api.GET('/api/v1/webhook-deliveries/{deliveryId}', path)), [id]);
  const action = useAction();
  if (!d) return <Loading problem={problem} />;
  return (
    <>
      <p>
        <a href={hrefOf({ page: 'deliveries' })}>{t('back')}</a>
      </p>
      <h1>
        {d.notificationTypeCode} <Badge kind={d.status}>{statusWord(d.status, t)}</Badge>
      </h1>
      <dl className="facts">
        <dt>webhook-id</dt>
        <dd>
          <code>{d.eventId}</code>
        </dd>
        <dt>{t('endpoint')}</dt>
        <dd>
          <a href={hrefOf({ page: 'endpoint', id: d.endpointId })}>{d.endpointId}</a>
        </dd>
        <dt>{t('created')}</dt>
        <dd>{formatTime(d.createdAt, language)}</dd>
      </dl>
      <IfCanChange>
        <button
          type="button"
          disabled={action.busy}
          onClick={() =>
            action.run(() => answer(api.POST('/api/v1/webhook-deliveries/{deliveryId}/retry', path)), reload)
          }
        >
          {t('retryNow')}
        </button>
        <Problem text={action.problem} />
      </IfCanChange>
      <h2>{t('requestBody')}</h2>
      <pre className="sent" data-testid="request-body">
        {d.requestBody ? JSON.stringify(JSON.parse(d.requestBody), null, 2) : t('noItems')}
      </pre>
      <h2>{t('attempts')}</h2>
      {d.attempts.length === 0 ? (
        <p>{t('noItems')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('attempt')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('statusCode')}</th>
              <th scope="col">{t('duration')}</th>
              <th scope="col">{t('error')}</th>
              <th scope="col">{t('response')}</th>
              <th scope="col">{t('requestHeaders')}</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a) => (
              <tr key={a.attemptNumber} className={`attempt-${a.outcome.toLowerCase()}`}>
                <td>{a.attemptNumber}</td>
                <td>{formatTime(a.startedAt, language)}</td>
                <td>{a.statusCode ?? '–'}</td>
                <td>{a.durationMs} ms</td>
                <td>{a.error ?? ''}</td>
                <td>
                  <pre>{a.responseExcerpt ?? ''}</pre>
                </td>
                <td>
                  <pre>{headerLines(a.requestHeaders)}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** Headers as a receiver's log shows them, one per line. */
const headerLines = (headers: Record<string, string> | null) =>
  Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
