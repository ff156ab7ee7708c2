import { registerFieldMessages, registerMessages } from '@fincore/platform';

/** Problem codes of pricing and fee quotation (account_not_found and card_not_found belong to cards). */
registerMessages({
  unknown_transaction_type: {
    title: { en: 'Unknown transaction type', de: 'Unbekannte Transaktionsart' },
    detail: {
      en: 'Transaction type {transactionTypeCode} is not in the catalog of this tenant.',
      de: 'Die Transaktionsart {transactionTypeCode} ist nicht im Katalog dieses Mandanten.',
    },
  },
  unknown_labels: {
    title: { en: 'Unknown labels', de: 'Unbekannte Merkmale' },
    detail: {
      en: 'These labels are not in the catalog of this tenant: {labels}.',
      de: 'Diese Merkmale sind nicht im Katalog dieses Mandanten: {labels}.',
    },
  },
  zero_amount_not_allowed: {
    title: { en: 'Amount must be positive', de: 'Betrag muss positiv sein' },
    detail: {
      en: 'Transactions of type {transactionTypeCode} cannot be quoted with amount 0.',
      de: 'Transaktionen der Art {transactionTypeCode} können nicht mit Betrag 0 berechnet werden.',
    },
  },
  card_required: {
    title: { en: 'Card required', de: 'Karte erforderlich' },
    detail: {
      en: 'Account {accountId} ({accountType}) carries debit, prepaid or gift cards: send cardId so the card’s price list applies.',
      de: 'Konto {accountId} ({accountType}) führt Debit-, Prepaid- oder Geschenkkarten: senden Sie cardId, damit die Preisliste der Karte gilt.',
    },
  },
  card_not_on_account: {
    title: { en: 'Card not on this account', de: 'Karte gehört nicht zu diesem Konto' },
    detail: {
      en: 'Card {cardId} does not belong to account {accountId}.',
      de: 'Die Karte {cardId} gehört nicht zum Konto {accountId}.',
    },
  },
  no_price_list: {
    title: { en: 'No price list', de: 'Keine Preisliste' },
    detail: {
      en: 'No price list of the card, the account or the tenant is valid on {date}.',
      de: 'Keine Preisliste der Karte, des Kontos oder des Mandanten gilt am {date}.',
    },
  },
  exchange_rate_missing: {
    title: { en: 'Exchange rate missing', de: 'Wechselkurs fehlt' },
    detail: {
      en: 'Fee {feeTypeCode} is priced in {from}: there is no {from}->{to} exchange rate valid on {date}.',
      de: 'Die Gebühr {feeTypeCode} ist in {from} bepreist: es gibt keinen am {date} gültigen Wechselkurs {from}->{to}.',
    },
  },
  price_list_not_found: {
    title: { en: 'Price list not found', de: 'Preisliste nicht gefunden' },
    detail: { en: 'There is no price list {priceListId}.', de: 'Es gibt keine Preisliste {priceListId}.' },
  },
  price_list_code_taken: {
    title: { en: 'Price list code taken', de: 'Preislistencode vergeben' },
    detail: {
      en: 'A price list with code {code} already exists.',
      de: 'Eine Preisliste mit dem Code {code} existiert bereits.',
    },
  },
  price_list_overlap: {
    title: { en: 'Validity periods overlap', de: 'Gültigkeitszeiträume überschneiden sich' },
    detail: {
      en: 'At this level a price list ({conflictingCode}) is already valid during part of {validFrom} to {validTo}.',
      de: 'Auf dieser Ebene gilt bereits eine Preisliste ({conflictingCode}) in einem Teil von {validFrom} bis {validTo}.',
    },
  },
  unknown_catalog_entries: {
    title: { en: 'Unknown catalog entries', de: 'Unbekannte Katalogeinträge' },
    detail: {
      en: 'The fee rules refer to transaction types or labels missing from the catalog; see errors.',
      de: 'Die Gebührenregeln verweisen auf Transaktionsarten oder Merkmale, die im Katalog fehlen; siehe errors.',
    },
  },
});

/** German texts of the pricing schemas' own field messages. */
registerFieldMessages({
  'a date written YYYY-MM-DD': { de: 'ein Datum der Form JJJJ-MM-TT' },
  'this date does not exist in the calendar': { de: 'dieses Datum gibt es im Kalender nicht' },
  'an ISO 4217 alphabetic code, e.g. EUR': { de: 'ein alphabetischer Code nach ISO 4217, z. B. EUR' },
  'not an active ISO 4217 currency code': { de: 'kein gültiger Währungscode nach ISO 4217' },
  'must not be before validFrom': { de: 'darf nicht vor validFrom liegen' },
  'required for level ACCOUNT': { de: 'für die Ebene ACCOUNT erforderlich' },
  'required for level CARD': { de: 'für die Ebene CARD erforderlich' },
  'must differ from baseCurrency': { de: 'muss sich von baseCurrency unterscheiden' },
  'upper-case letters, digits and _, starting with a letter': {
    de: 'Großbuchstaben, Ziffern und _, beginnend mit einem Buchstaben',
  },
});
