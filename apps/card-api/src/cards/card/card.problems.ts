import { defineProblems } from '@fincore/platform';

/** Problem codes of cards. Details name the offending identifiers. */
const problems = defineProblems({
  card_not_found: {
    status: 404,
    title: { en: 'Card not found', de: 'Karte nicht gefunden' },
    detail: { en: 'There is no card {cardId}.', de: 'Es gibt keine Karte {cardId}.' },
  },
  card_exists: {
    status: 409,
    title: { en: 'Card already exists', de: 'Karte existiert bereits' },
    detail: { en: 'A card {cardId} already exists.', de: 'Eine Karte {cardId} existiert bereits.' },
  },
  card_closed: {
    status: 409,
    title: { en: 'Card closed', de: 'Karte geschlossen' },
    detail: {
      en: 'Card {cardId} is closed and can no longer be changed.',
      de: 'Karte {cardId} ist geschlossen und kann nicht mehr geändert werden.',
    },
  },
  unknown_account: {
    status: 422,
    title: { en: 'Unknown account', de: 'Unbekanntes Konto' },
    detail: {
      en: 'The card refers to account {accountId}, which does not exist.',
      de: 'Die Karte verweist auf das Konto {accountId}, das nicht existiert.',
    },
  },
  account_closed: {
    status: 422,
    title: { en: 'Account closed', de: 'Konto geschlossen' },
    detail: {
      en: 'Account {accountId} is closed; no card can be provisioned on it.',
      de: 'Konto {accountId} ist geschlossen; darauf kann keine Karte ausgegeben werden.',
    },
  },
  unknown_usage_group: {
    status: 422,
    title: { en: 'Unknown usage group', de: 'Unbekannte Nutzungsgruppe' },
    detail: {
      en: 'The card refers to usage group {code}, which does not exist.',
      de: 'Die Karte verweist auf die Nutzungsgruppe {code}, die nicht existiert.',
    },
  },
});

export const cardNotFound = (cardId: string) => problems.card_not_found({ cardId });
export const cardExists = (cardId: string) => problems.card_exists({ cardId });
export const cardClosed = (cardId: string) => problems.card_closed({ cardId });
/** The account a new card names does not exist. */
export const unknownAccount = (accountId: string) => problems.unknown_account({ accountId });
export const accountClosed = (accountId: string) => problems.account_closed({ accountId });
/** The usage group a new card names does not exist. */
export const unknownUsageGroup = (code: string) => problems.unknown_usage_group({ code });
