import { registerMessages } from '@fincore/platform';

/** Problem codes of the cards context. Details name the offending identifiers. */
registerMessages({
  account_not_found: {
    title: { en: 'Account not found', de: 'Konto nicht gefunden' },
    detail: { en: 'There is no account {accountId}.', de: 'Es gibt kein Konto {accountId}.' },
  },
  account_exists: {
    title: { en: 'Account already exists', de: 'Konto existiert bereits' },
    detail: { en: 'An account {accountId} already exists.', de: 'Ein Konto {accountId} existiert bereits.' },
  },
  unknown_account: {
    title: { en: 'Unknown account', de: 'Unbekanntes Konto' },
    detail: {
      en: 'The card refers to account {accountId}, which does not exist.',
      de: 'Die Karte verweist auf das Konto {accountId}, das nicht existiert.',
    },
  },
  account_closed: {
    title: { en: 'Account closed', de: 'Konto geschlossen' },
    detail: {
      en: 'Account {accountId} is closed; no card can be provisioned on it.',
      de: 'Konto {accountId} ist geschlossen; darauf kann keine Karte ausgegeben werden.',
    },
  },
  usage_group_not_found: {
    title: { en: 'Usage group not found', de: 'Nutzungsgruppe nicht gefunden' },
    detail: { en: 'There is no usage group {code}.', de: 'Es gibt keine Nutzungsgruppe {code}.' },
  },
  usage_group_exists: {
    title: { en: 'Usage group already exists', de: 'Nutzungsgruppe existiert bereits' },
    detail: {
      en: 'A usage group {code} already exists.',
      de: 'Eine Nutzungsgruppe {code} existiert bereits.',
    },
  },
  unknown_usage_group: {
    title: { en: 'Unknown usage group', de: 'Unbekannte Nutzungsgruppe' },
    detail: {
      en: 'The card refers to usage group {code}, which does not exist.',
      de: 'Die Karte verweist auf die Nutzungsgruppe {code}, die nicht existiert.',
    },
  },
  card_not_found: {
    title: { en: 'Card not found', de: 'Karte nicht gefunden' },
    detail: { en: 'There is no card {cardId}.', de: 'Es gibt keine Karte {cardId}.' },
  },
  card_exists: {
    title: { en: 'Card already exists', de: 'Karte existiert bereits' },
    detail: { en: 'A card {cardId} already exists.', de: 'Eine Karte {cardId} existiert bereits.' },
  },
  card_closed: {
    title: { en: 'Card closed', de: 'Karte geschlossen' },
    detail: {
      en: 'Card {cardId} is closed and can no longer be changed.',
      de: 'Karte {cardId} ist geschlossen und kann nicht mehr geändert werden.',
    },
  },
  unknown_service_code: {
    title: { en: 'Unknown service code', de: 'Unbekannter Service-Code' },
    detail: {
      en: 'Not a service code: {serviceCodes}. See GET /api/v1/service-codes.',
      de: 'Kein Service-Code: {serviceCodes}. Siehe GET /api/v1/service-codes.',
    },
  },
  duplicate_service_code: {
    title: { en: 'Service code given more than once', de: 'Service-Code mehrfach angegeben' },
    detail: {
      en: 'authorisationTypes lists these service codes more than once: {serviceCodes}.',
      de: 'authorisationTypes enthält diese Service-Codes mehrfach: {serviceCodes}.',
    },
  },
  service_code_not_supported_by_network: {
    title: {
      en: 'Service code not available on the card network',
      de: 'Service-Code im Kartennetzwerk nicht verfügbar',
    },
    detail: {
      en: 'Card {cardId} is a {network} card; these service codes exist on VISA only: {serviceCodes}.',
      de: 'Karte {cardId} ist eine {network}-Karte; diese Service-Codes gibt es nur bei VISA: {serviceCodes}.',
    },
  },
  service_code_not_in_usage_group: {
    title: {
      en: 'Service code not allowed by the usage group',
      de: 'Service-Code in der Nutzungsgruppe nicht erlaubt',
    },
    detail: {
      en: 'The usage group {usageGroup} of card {cardId} does not allow these service codes: {serviceCodes}.',
      de: 'Die Nutzungsgruppe {usageGroup} der Karte {cardId} erlaubt diese Service-Codes nicht: {serviceCodes}.',
    },
  },
  service_codes_missing: {
    title: { en: 'Service codes missing', de: 'Service-Codes fehlen' },
    detail: {
      en: 'The usage group {usageGroup} of card {cardId} allows these service codes, so the request must say whether each is allowed: {serviceCodes}.',
      de: 'Die Nutzungsgruppe {usageGroup} der Karte {cardId} erlaubt diese Service-Codes, daher muss die Anfrage für jeden angeben, ob er erlaubt ist: {serviceCodes}.',
    },
  },
});
