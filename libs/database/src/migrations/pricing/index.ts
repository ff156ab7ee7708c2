import { PricingCatalogsPriceListsRates1763700000500 } from './1763700000500-pricing-catalogs-price-lists-rates';

/** Migrations of the pricing schema, oldest first. */
export const PRICING_MIGRATIONS: Function[] = [PricingCatalogsPriceListsRates1763700000500];
