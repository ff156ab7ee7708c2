/** OpenAPI examples of the credentials API. */

export const INVALIDATE_CREDENTIALS_EXAMPLE = {
  personId: 'demo-person-1',
  username: 'demo.user',
  password: 'Demo-Passw0rd-2025',
};

export const INVALIDATED_CREDENTIALS_EXAMPLE = {
  personId: 'demo-person-1',
  status: 'INVALIDATED',
  invalidatedAt: '2025-11-21T10:15:30.123Z',
};

export const AUTHENTICATE_EXAMPLE = { username: 'demo.user', password: 'Demo-Passw0rd-2025' };

export const AUTHENTICATED_EXAMPLE = {
  authenticated: true,
  personId: 'demo-person-1',
  authenticatedAt: '2025-11-21T10:00:00.000Z',
};

/** The one answer to every mismatch, as the given operation sends it. */
export const invalidCredentialsExample = (status: number, instance: string) => ({
  type: 'urn:fincore:problem:invalid_credentials',
  title: 'Invalid credentials',
  status,
  detail: 'The username and password do not match valid credentials of the person.',
  code: 'invalid_credentials',
  instance,
});
