import type { ApiClient } from '../http';

/** What opening a portal link answered: the redirect and its session cookie, or a refusal page. */
export interface LinkOpened {
  status: number;
  headers: Headers;
  text: string;
  /** `name=value` of the session cookie, ready for a Cookie header; undefined without one. */
  cookie?: string;
  setCookie: string | null;
}

/** Opens a portal link as a browser would, on the app under test, without following the redirect. */
export async function openPortalLink(appUrl: string, link: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(link);
  const r = await fetch(`${appUrl}${pathname}${search}`, { redirect: 'manual', headers });
  const setCookie = r.headers.get('set-cookie');
  const opened: LinkOpened = {
    status: r.status,
    headers: r.headers,
    text: await r.text(),
    setCookie,
    cookie: setCookie?.split(';')[0],
  };
  return opened;
}

/** A portal link for the token's tenant, read-write unless asked otherwise (201 or the test fails). */
export async function createPortalLink(api: ApiClient, token: string, body: { readOnly?: boolean } = {}) {
  const r = await api.post('/api/v1/portal-sessions', body, { token });
  if (r.status !== 201) throw new Error(`portal link: ${r.status} ${r.text}`);
  return r.body as { url: string; expiresAt: string };
}

/** Headers of a request the portal's own script makes: the session cookie and the portal header. */
export function asPortal(
  cookie: string,
  { withPortalHeader = true } = {},
): { headers: Record<string, string> } {
  return { headers: { cookie, ...(withPortalHeader ? { 'x-fincore-portal': '1' } : {}) } };
}
