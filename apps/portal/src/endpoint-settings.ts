/** How the endpoint form turns what was typed into the API's `filter` and `tls` fields. */

export type FilterText = { ok: true; filter: unknown } | { ok: false; detail: string };

/** Empty text is no filter (null); anything else must be JSON, whose meaning the API checks. */
export function readFilter(text: string): FilterText {
  if (text.trim() === '') return { ok: true, filter: null };
  try {
    return { ok: true, filter: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, detail: e instanceof Error ? e.message : String(e) };
  }
}

export function filterText(filter: unknown): string {
  return filter === null || filter === undefined ? '' : JSON.stringify(filter, null, 2);
}

export type TlsMode = 'none' | 'keep' | 'new';

export interface TlsDraft {
  mode: TlsMode;
  clientCertificate: string;
  clientKey: string;
  caCertificates: string;
}

export const emptyTls = (mode: TlsMode): TlsDraft => ({
  mode,
  clientCertificate: '',
  clientKey: '',
  caCertificates: '',
});

export interface TlsMaterial {
  clientCertificate: string;
  clientKey: string;
  caCertificates?: string;
}

/** The request's `tls`: left out to keep what is stored, null for none, or the new material. */
export function tlsField(draft: TlsDraft): { tls?: TlsMaterial | null } {
  if (draft.mode === 'keep') return {};
  if (draft.mode === 'none') return { tls: null };
  const { clientCertificate, clientKey, caCertificates } = draft;
  return { tls: { clientCertificate, clientKey, ...(caCertificates.trim() ? { caCertificates } : {}) } };
}
