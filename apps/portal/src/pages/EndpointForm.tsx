import { useState, type FormEvent } from 'react';
import { answer, api, type FieldProblem, type Schemas } from '../api';
import { emptyTls, filterText, readFilter, tlsField } from '../endpoint-settings';
import { useLoad, usePortal } from '../ui';
import { FilterField, type Scheme, SchemesField, TlsFields } from './EndpointSecurity';

type Create = Schemas['CreateWebhookEndpointRequest'];
type Ordering = NonNullable<Create['ordering']>;
type Payload = NonNullable<Create['payload']>;

interface Props {
  busy: boolean;
  onCancel(): void;
  onSubmit(body: Create): void;
  /** The fields the API refused last time, shown beside each. */
  fields: readonly FieldProblem[];
  /** Editing an existing endpoint: only what can change after creation is offered. */
  editing?: Schemas['WebhookEndpoint'];
}

/** The endpoint's settings; the event types offered are whatever the catalog lists. */
export function EndpointForm({ busy, onCancel, onSubmit, editing, fields }: Props) {
  const { t } = usePortal();
  const types = useLoad(() => answer(api.GET('/api/v1/notification-types')), []);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [ordering, setOrdering] = useState<Ordering>(editing?.ordering ?? 'NONE');
  const [rateLimit, setRateLimit] = useState(editing?.rateLimit?.toString() ?? '');
  const [payload, setPayload] = useState<Payload>(editing?.payload ?? 'FULL');
  const [schemes, setSchemes] = useState<Scheme[]>(editing?.signatureSchemes ?? ['v1']);
  const [filter, setFilter] = useState(filterText(editing?.filter));
  const [notJson, setNotJson] = useState<string>();
  const [tls, setTls] = useState(emptyTls(editing?.tls ? 'keep' : 'none'));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const read = readFilter(filter);
    setNotJson(read.ok ? undefined : read.detail);
    if (!read.ok) return;
    const settings = {
      ordering,
      payload,
      rateLimit: rateLimit.trim() === '' ? null : Number(rateLimit),
      signatureSchemes: schemes,
      filter: read.filter as Create['filter'],
      ...tlsField(tls),
    };
    if (editing) return onSubmit(settings as Create);
    onSubmit({
      url,
      ...settings,
      ...(description ? { description } : {}),
      // The catalog decides the codes; the document's enum is the one it had when the portal was built.
      ...(chosen.length ? { notificationTypeCodes: chosen as Create['notificationTypeCodes'] } : {}),
    });
  };

  return (
    <form onSubmit={submit} className="card">
      {!editing && (
        <>
          <label>
            {t('url')}
            <input type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
          </label>
          <label>
            {t('description')}
            <input value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
          </label>
          <fieldset>
            <legend>{t('types')}</legend>
            <p className="hint">{chosen.length === 0 && t('allTypes')}</p>
            {types.value?.items.map((type) => (
              <label key={type.code} className="inline">
                <input
                  type="checkbox"
                  checked={chosen.includes(type.code)}
                  onChange={(e) =>
                    setChosen(
                      e.target.checked ? [...chosen, type.code] : chosen.filter((c) => c !== type.code),
                    )
                  }
                />
                {type.code}
              </label>
            ))}
          </fieldset>
        </>
      )}
      <label>
        {t('ordering')}
        <select value={ordering} onChange={(e) => setOrdering(e.target.value as Ordering)}>
          <option value="NONE">{t('orderingNone')}</option>
          <option value="SUBJECT">{t('orderingSubject')}</option>
        </select>
      </label>
      <label>
        {t('payload')}
        <select value={payload} onChange={(e) => setPayload(e.target.value as Payload)}>
          <option value="FULL">{t('payloadFull')}</option>
          <option value="THIN">{t('payloadThin')}</option>
        </select>
      </label>
      <label>
        {t('rateLimit')}
        <input
          type="number"
          min={1}
          inputMode="numeric"
          value={rateLimit}
          onChange={(e) => setRateLimit(e.target.value)}
        />
      </label>
      <SchemesField schemes={schemes} onChange={setSchemes} fields={fields} />
      <FilterField text={filter} onChange={setFilter} notJson={notJson} fields={fields} />
      <TlsFields draft={tls} onChange={setTls} stored={!!editing?.tls} fields={fields} />
      <div className="actions">
        <button type="submit" disabled={busy}>
          {t('save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}
