import { defineProblems, FieldError } from '@fincore/platform';
import type { QuoteError } from './domain/fee-engine';

/** Problem codes of pricing: catalogs, price lists and fee quotes. */
const problems = defineProblems({
  unknown_transaction_type: {
    status: 422,
    title: { en: 'Unknown transaction type', de: 'Unbekannte Transaktionsart' },
    detail: {
      en: 'Transaction type {transactionTypeCode} is not in the catalog of this tenant.',
      de: 'Die Transaktionsart {transactionTypeCode} ist nicht im Katalog dieses Mandanten.',
    },
  },
  unknown_labels: {
    status: 422,
    title: { en: 'Unknown labels', de: 'Unbekannte Merkmale' },
    detail: {
      en: 'These labels are not in the catalog of this tenant: {labels}.',
      de: 'Diese Merkmale sind nicht im Katalog dieses Mandanten: {labels}.',
    },
  },
  zero_amount_not_allowed: {
    status: 422,
    title: { en: 'Amount must be positive', de: 'Betrag muss positiv sein' },
    detail: {
      en: 'Transactions of type {transactionTypeCode} cannot be quoted with amount 0.',
      de: 'Transaktionen der Art {transactionTypeCode} können nicht mit Betrag 0 berechnet werden.',
    },
  },
  card_required: {
    status: 422,
    title: { en: 'Card required', de: 'Karte erforderlich' },
    detail: {
      en: 'Account {accountId} ({accountType}) carries debit, prepaid or gift cards: send cardId so the card’s price list applies.',
      de: 'Konto {accountId} ({accountType}) führt Debit-, Prepaid- oder Geschenkkarten: senden Sie cardId, damit die Preisliste der Karte gilt.',
    },
  },
  card_not_on_account: {
    status: 422,
    title: { en: 'Card not on this account', de: 'Karte gehört nicht zu diesem Konto' },
    detail: {
      en: 'Card {cardId} does not belong to account {accountId}.',
      de: 'Die Karte {cardId} gehört nicht zum Konto {accountId}.',
    },
  },
  no_price_list: {
    status: 422,
    title: { en: 'No price list', de: 'Keine Preisliste' },
    detail: {
      en: 'No price list of the card, the account or the tenant is valid on {date}.',
      de: 'Keine Preisliste der Karte, des Kontos oder des Mandanten gilt am {date}.',
    },
  },
  exchange_rate_missing: {
    status: 422,
    title: { en: 'Exchange rate missing', de: 'Wechselkurs fehlt' },
    detail: {
      en: 'Fee {feeTypeCode} is priced in {from}: there is no {from}->{to} exchange rate valid on {date}.',
      de: 'Die Gebühr {feeTypeCode} ist in {from} bepreist: es gibt keinen am {date} gültigen Wechselkurs {from}->{to}.',
    },
  },
  price_list_not_found: {
    status: 404,
    title: { en: 'Price list not found', de: 'Preisliste nicht gefunden' },
    detail: { en: 'There is no price list {priceListId}.', de: 'Es gibt keine Preisliste {priceListId}.' },
  },
  price_list_code_taken: {
    status: 409,
    title: { en: 'Price list code taken', de: 'Preislistencode vergeben' },
    detail: {
      en: 'A price list with code {code} already exists.',
      de: 'Eine Preisliste mit dem Code {code} existiert bereits.',
    },
  },
  price_list_overlap: {
    status: 409,
    title: { en: 'Validity periods overlap', de: 'Gültigkeitszeiträume überschneiden sich' },
    detail: {
      en: 'At this level a price list ({conflictingCode}) is already valid during part of {validFrom} to {validTo}.',
      de: 'Auf dieser Ebene gilt bereits eine Preisliste ({conflictingCode}) in einem Teil von {validFrom} bis {validTo}.',
    },
  },
  unknown_catalog_entries: {
    status: 422,
    title: { en: 'Unknown catalog entries', de: 'Unbekannte Katalogeinträge' },
    detail: {
      en: 'The fee rules refer to transaction types or labels missing from the catalog; see errors.',
      de: 'Die Gebührenregeln verweisen auf Transaktionsarten oder Merkmale, die im Katalog fehlen; siehe errors.',
    },
  },
});

export const unknownTransactionType = (transactionTypeCode: string) =>
  problems.unknown_transaction_type({ transactionTypeCode });
export const unknownLabels = (labels: string[]) => problems.unknown_labels({ labels });
export const zeroAmountNotAllowed = (transactionTypeCode: string) =>
  problems.zero_amount_not_allowed({ transactionTypeCode });
export const cardRequired = (accountId: string, accountType: string) =>
  problems.card_required(
    { accountId, accountType },
    { errors: [{ field: 'cardId', message: `required for ${accountType} accounts` }] },
  );
export const cardNotOnAccount = (cardId: string, accountId: string) =>
  problems.card_not_on_account({ cardId, accountId });
/** What the fee engine could not price (no price list, no exchange rate). */
export const quoteRefused = (error: QuoteError) => problems[error.code](error.params);
export const priceListNotFound = (priceListId: string) => problems.price_list_not_found({ priceListId });
export const priceListCodeTaken = (code: string) => problems.price_list_code_taken({ code });
export const priceListOverlap = (conflictingCode: string, validFrom: string, validTo?: string | null) =>
  problems.price_list_overlap({ conflictingCode, validFrom, validTo: validTo ?? 'open end' });
export const unknownCatalogEntries = (errors: FieldError[]) =>
  problems.unknown_catalog_entries({}, { errors });
