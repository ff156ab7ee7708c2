import { defineProblems } from '@fincore/platform';

/** Problem codes of accounts. */
const problems = defineProblems({
  account_not_found: {
    status: 404,
    title: { en: 'Account not found', de: 'Konto nicht gefunden' },
    detail: { en: 'There is no account {accountId}.', de: 'Es gibt kein Konto {accountId}.' },
  },
  account_exists: {
    status: 409,
    title: { en: 'Account already exists', de: 'Konto existiert bereits' },
    detail: { en: 'An account {accountId} already exists.', de: 'Ein Konto {accountId} existiert bereits.' },
  },
});

export const accountNotFound = (accountId: string) => problems.account_not_found({ accountId });
export const accountExists = (accountId: string) => problems.account_exists({ accountId });
