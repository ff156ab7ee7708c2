/**
 * Account types that carry debit, prepaid or gift cards: their quotes need cardId so the
 * card-level price list applies. Only CREDIT accounts are priced without a card.
 */
export const CARD_REQUIRED_ACCOUNT_TYPES: ReadonlySet<string> = new Set(['CURRENT', 'PREPAID']);

/** An account carrying a card of one of these types needs cardId, whatever its own type. */
export const CARD_REQUIRED_CARD_TYPES: ReadonlySet<string> = new Set(['DEBIT', 'PREPAID', 'GIFT']);

/** Whether a quote on this account must name the card it is made with. */
export function quoteNeedsCard(account: { type: string; cardTypes: readonly string[] }): boolean {
  return (
    CARD_REQUIRED_ACCOUNT_TYPES.has(account.type) ||
    account.cardTypes.some((t) => CARD_REQUIRED_CARD_TYPES.has(t))
  );
}
