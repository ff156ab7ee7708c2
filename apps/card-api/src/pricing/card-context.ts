/**
 * Everything pricing takes from the card context, in one place: the card and account lookups of
 * the fee quote and price-list owners, the module providing them, and the id schemas.
 */
export { accountNotFound } from '../accounts/account.problems';
export { AccountRepository } from '../accounts/account.repository';
export type { AccountRef } from '../accounts/account.repository';
export { cardNotFound } from '../cards/card.problems';
export { CardRepository } from '../cards/card.repository';
export { CardRefs } from '../cards/card-refs';
export type { CardRef } from '../cards/card.repository';
export { CardsModule } from '../cards/cards.module';
export { AccountId, CardId } from '../identifiers.schemas';
