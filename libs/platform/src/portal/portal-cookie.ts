/** The session cookie's name, and the header the portal sends with every request it makes. */
export const PORTAL_COOKIE = 'fincore_portal';
export const PORTAL_CSRF_HEADER = 'x-fincore-portal';

/** The value of one cookie in a Cookie header; undefined when absent. */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends
 * it), Secure when the portal is served over https.
 */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = [
    `${PORTAL_COOKIE}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Strict',
  ];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** Tells the browser to drop the session cookie (the attributes must match for it to be replaced). */
export function endedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
