/**
 * Everything pricing takes from the card context, in one place: the card and account lookups of
 * the fee quote and price-list owners, the module providing them, and the id schemas.
 */
export { CardDirectory } from '../cards/card-directory';
export type { AccountRef, CardRef } from '../cards/card-directory';
export { CardsModule } from '../cards/cards.module';
export { AccountId, CardId } from '../cards/cards.schemas';
