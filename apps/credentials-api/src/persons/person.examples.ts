/** OpenAPI examples of the persons API. */

export const CREDENTIALS_SUMMARY_EXAMPLE = {
  username: 'demo.user',
  status: 'ACTIVE',
  invalidatedAt: null,
  updatedAt: '2025-11-21T09:00:00.000Z',
};

export const PERSON_EXAMPLE = {
  personId: 'demo-person-1',
  firstName: 'Demo',
  lastName: 'User',
  email: 'demo.user@example.com',
  phone: null,
  credentials: CREDENTIALS_SUMMARY_EXAMPLE,
  createdAt: '2025-11-21T09:00:00.000Z',
  updatedAt: '2025-11-21T09:00:00.000Z',
};

export const CREATE_PERSON_EXAMPLE = {
  personId: 'person-4711',
  username: 'ada.lovelace',
  password: 'analytical engine 1843',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+4930123456',
};

export const UPDATE_PERSON_EXAMPLE = { lastName: 'King', phone: null };

export const SET_CREDENTIALS_EXAMPLE = { username: 'demo.user', password: 'a brand new passphrase 2' };

export const PERSON_ERASURE_EXAMPLE = {
  personId: 'demo-person-1',
  status: 'ERASED',
  erasedAt: '2025-11-22T10:00:00.000Z',
  erasedByTokenId: '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b',
  requestId: '3e0c9a51-8f2d-4b7a-9c6e-1d2f3a4b5c6d',
};
