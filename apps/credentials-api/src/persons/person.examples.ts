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
