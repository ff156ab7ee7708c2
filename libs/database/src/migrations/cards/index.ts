import { CardsAccountsCardsSettings1763700000300 } from './1763700000300-cards-accounts-cards-settings';

/** Migrations of the cards schema, oldest first. */
export const CARDS_MIGRATIONS: Function[] = [CardsAccountsCardsSettings1763700000300];
