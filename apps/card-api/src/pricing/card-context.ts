/**
 * Everything pricing takes from the card context, in one place: the card and account lookups of
 * the fee quote and price-list owners, the module providing them, and the id schemas.
 */
export { accountNotFound } from '../cards/accounts/account.problems';
export { AccountRepository } from '../cards/accounts/account.repository';
export type { AccountRef } from '../cards/accounts/account.repository';
export { cardNotFound } from '../cards/card/card.problems';
export { CardRepository } from '../cards/card/card.repository';
export { CardRefs } from '../cards/card/card-refs';
export type { CardRef } from '../cards/card/card.repository';
export { CardsModule } from '../cards/cards.module';
export { AccountId, CardId } from '../identifiers.schemas';
