import { useEffect, useState } from 'react';
import { answer, api, type Schemas } from '../api';
import { deliveriesQueryOf } from '../deliveries-query';
import { hrefOf, isEntityId, withFilter, type DeliveryFilter } from '../route';
import { instantOfLocalInput, localInputOf, windowProblem } from '../time-window';
import { Badge, formatTime, Loading, Problem, useLoad, usePortal } from '../ui';

type Status = Schemas['WebhookDelivery']['status'];
const STATUSES: Status[] = ['PENDING', 'SUCCEEDED', 'FAILED'];

export function statusWord(status: Status, t: ReturnType<typeof usePortal>['t']) {
  return status === 'SUCCEEDED' ? t('succeeded') : status === 'FAILED' ? t('failed') : t('pending');
}

/**
 * An input for one filter of the URL: what is typed applies once `parse` takes it (an empty
 * input clears the filter), or not at all, so a half-typed value asks the API nothing.
 */
function FilterInput(props: {
  label: string;
  type: 'datetime-local' | 'text';
  value?: string;
  draftOf: (value?: string) => string;
  parse: (draft: string) => string | undefined;
  onChange: (value?: string) => void;
}) {
  const { draftOf, value } = props;
  const [draft, setDraft] = useState(draftOf(value));
  useEffect(() => setDraft(draftOf(value)), [draftOf, value]);
  return (
    <label>
      {props.label}
      <input
        type={props.type}
        value={draft}
        spellCheck={false}
        onChange={(e) => {
          const typed = e.target.value.trim();
          setDraft(e.target.value);
          const parsed = props.parse(typed);
          if (typed === '' || parsed) props.onChange(parsed);
        }}
      />
    </label>
  );
}

const asIs = (value?: string) => value ?? '';
const webhookIdOf = (draft: string) => (isEntityId(draft) ? draft.toLowerCase() : undefined);

/**
 * Deliveries newest first, filtered by status, event type, endpoint, webhook-id and time, a page at a time.
 * The filters live in the URL: a filtered list can be bookmarked, shared and gone back to.
 */
export function DeliveriesPage({ filter }: { filter: DeliveryFilter }) {
  const { t, language } = usePortal();
  const here = hrefOf({ page: 'deliveries', ...filter });
  // The pages passed under this filter only: another filter starts at the newest again.
  const [paging, setPaging] = useState({ of: here, cursors: [] as string[] });
  const cursors = paging.of === here ? paging.cursors : [];
  const cursor = cursors[cursors.length - 1];
  const invalid = windowProblem(filter.since, filter.until);
  const endpoints = useLoad(() => answer(api.GET('/api/v1/webhook-endpoints')), []);
  const types = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  const page = useLoad(
    () =>
      invalid
        ? Promise.resolve(null)
        : answer(
            api.GET('/api/v1/webhook-deliveries', { params: { query: deliveriesQueryOf(filter, cursor) } }),
          ),
    [here, cursor],
  );
  const change = (c: Partial<DeliveryFilter>) => {
    window.location.hash = hrefOf({ page: 'deliveries', ...withFilter(filter, c) });
  };
  const urlOf = (id: string) => endpoints.value?.items.find((e) => e.id === id)?.url ?? id;

  return (
    <>
      <h1>{t('deliveries')}</h1>
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('status')}
          <select
            value={filter.status ?? ''}
            onChange={(e) => change({ status: (e.target.value || undefined) as Status | undefined })}
          >
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
          <select value={filter.type ?? ''} onChange={(e) => change({ type: e.target.value })}>
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
          <select value={filter.endpointId ?? ''} onChange={(e) => change({ endpointId: e.target.value })}>
            <option value="">{t('any')}</option>
            {endpoints.value?.items.map((e) => (
              <option key={e.id} value={e.id}>
                {e.url}
              </option>
            ))}
          </select>
        </label>
        <FilterInput
          label={t('webhookId')}
          type="text"
          value={filter.eventId}
          draftOf={asIs}
          parse={webhookIdOf}
          onChange={(eventId) => change({ eventId })}
        />
        <FilterInput
          label={t('from')}
          type="datetime-local"
          value={filter.since}
          draftOf={localInputOf}
          parse={instantOfLocalInput}
          onChange={(since) => change({ since })}
        />
        <FilterInput
          label={t('to')}
          type="datetime-local"
          value={filter.until}
          draftOf={localInputOf}
          parse={instantOfLocalInput}
          onChange={(until) => change({ until })}
        />
      </form>
      {invalid ? (
        <Problem text={t(invalid)} />
      ) : !page.value ? (
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
          <button type="button" onClick={() => setPaging({ of: here, cursors: [] })}>
            {t('firstPage')}
          </button>
        )}
        {!invalid && page.value?.nextCursor && (
          <button
            type="button"
            onClick={() => setPaging({ of: here, cursors: [...cursors, page.value!.nextCursor!] })}
          >
            {t('nextPage')}
          </button>
        )}
      </div>
    </>
  );
}
