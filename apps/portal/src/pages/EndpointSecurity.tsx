import type { FieldProblem, Schemas } from '../api';
import type { TlsDraft, TlsMode } from '../endpoint-settings';
import { FieldProblems, formatTime, usePortal } from '../ui';

type Endpoint = Schemas['WebhookEndpoint'];
export type Scheme = Endpoint['signatureSchemes'][number];
const SCHEMES: readonly Scheme[] = ['v1', 'v1a'];

interface Refusals {
  fields: readonly FieldProblem[];
}

/** At least one scheme stays chosen: the last one cannot be unticked. */
export function SchemesField({
  schemes,
  onChange,
  fields,
}: Refusals & { schemes: readonly Scheme[]; onChange(schemes: Scheme[]): void }) {
  const { t } = usePortal();
  return (
    <fieldset aria-describedby="schemes-problem">
      <legend>{t('signatureSchemes')}</legend>
      {SCHEMES.map((scheme) => {
        const chosen = schemes.includes(scheme);
        return (
          <label key={scheme} className="inline">
            <input
              type="checkbox"
              checked={chosen}
              disabled={chosen && schemes.length === 1}
              onChange={(e) =>
                onChange(e.target.checked ? [...schemes, scheme] : schemes.filter((s) => s !== scheme))
              }
            />
            {scheme === 'v1' ? t('schemeV1') : t('schemeV1a')}
          </label>
        );
      })}
      <FieldProblems id="schemes-problem" field="signatureSchemes" fields={fields} />
    </fieldset>
  );
}

/** JSON as the API takes it: the API checks the grammar and names the wrong part. */
export function FilterField({
  text,
  onChange,
  notJson,
  fields,
}: Refusals & { text: string; onChange(text: string): void; notJson?: string }) {
  const { t } = usePortal();
  return (
    <div>
      <label htmlFor="filter">{t('filter')}</label>
      <p id="filter-hint" className="hint">
        {t('filterHint')}
      </p>
      <textarea
        id="filter"
        rows={4}
        spellCheck={false}
        value={text}
        aria-describedby="filter-hint filter-problem"
        aria-invalid={!!notJson || fields.some((f) => f.field.startsWith('filter'))}
        onChange={(e) => onChange(e.target.value)}
      />
      {notJson ? (
        <p id="filter-problem" role="alert" className="problem field-problem">
          {t('notJson', { detail: notJson })}
        </p>
      ) : (
        <FieldProblems id="filter-problem" field="filter" fields={fields} />
      )}
    </div>
  );
}

const PEM_FIELDS = ['clientCertificate', 'clientKey', 'caCertificates'] as const;

/** The key is only ever typed in: what is stored is kept, replaced or removed, never shown. */
export function TlsFields({
  draft,
  onChange,
  stored,
  fields,
}: Refusals & { draft: TlsDraft; onChange(draft: TlsDraft): void; stored: boolean }) {
  const { t } = usePortal();
  const modes: TlsMode[] = stored ? ['keep', 'new', 'none'] : ['none', 'new'];
  const names = { none: t('tlsNone'), keep: t('tlsKeep'), new: t('tlsNew') };
  return (
    <fieldset>
      <legend>{t('tls')}</legend>
      <select
        aria-label={t('tls')}
        value={draft.mode}
        onChange={(e) => onChange({ ...draft, mode: e.target.value as TlsMode })}
      >
        {modes.map((mode) => (
          <option key={mode} value={mode}>
            {names[mode]}
          </option>
        ))}
      </select>
      {draft.mode === 'new' &&
        PEM_FIELDS.map((name) => (
          <div key={name}>
            <label htmlFor={`tls-${name}`}>{t(name)}</label>
            <textarea
              id={`tls-${name}`}
              rows={4}
              spellCheck={false}
              required={name !== 'caCertificates'}
              autoComplete="off"
              value={draft[name]}
              aria-describedby={`tls-${name}-problem`}
              onChange={(e) => onChange({ ...draft, [name]: e.target.value })}
            />
            <FieldProblems id={`tls-${name}-problem`} field={`tls.${name}`} fields={fields} />
          </div>
        ))}
      <FieldProblems
        id="tls-problem"
        field="tls"
        fields={fields.filter((f) => !PEM_FIELDS.some((n) => f.field.startsWith(`tls.${n}`)))}
      />
    </fieldset>
  );
}

/** The endpoint's schemes, filter and certificate as its page shows them; the key never. */
export function SecurityFacts({ endpoint }: { endpoint: Endpoint }) {
  const { t, language } = usePortal();
  const tls = endpoint.tls;
  return (
    <>
      <dt>{t('signatureSchemes')}</dt>
      <dd>{endpoint.signatureSchemes.join(', ')}</dd>
      <dt>{t('filter')}</dt>
      <dd>{endpoint.filter ? <pre>{JSON.stringify(endpoint.filter, null, 2)}</pre> : t('filterNone')}</dd>
      <dt>{t('tls')}</dt>
      <dd>
        {tls ? (
          <>
            {t('tlsCertificate', {
              ...tls.clientCertificate,
              validTo: formatTime(tls.clientCertificate.validTo, language),
            })}
            <br />
            <code>{t('fingerprint', { fingerprint: tls.clientCertificate.fingerprint256 })}</code>
            <br />
            {tls.caCertificates > 0 ? t('caOwn', { count: tls.caCertificates }) : t('caSystem')}
          </>
        ) : (
          t('tlsNone')
        )}
      </dd>
    </>
  );
}
