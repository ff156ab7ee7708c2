import { CARDS_MIGRATIONS } from './cards';
import { CREDENTIALS_MIGRATIONS } from './credentials';
import { EVENTS_MIGRATIONS } from './events';
import { NOTIFICATIONS_MIGRATIONS } from './notifications';
import { PLATFORM_MIGRATIONS } from './platform';
import { PRICING_MIGRATIONS } from './pricing';

/** One folder per schema (bounded context); TypeORM orders them by the timestamp in their names. */
export const ALL_MIGRATIONS: Function[] = [
  ...PLATFORM_MIGRATIONS,
  ...EVENTS_MIGRATIONS,
  ...CREDENTIALS_MIGRATIONS,
  ...CARDS_MIGRATIONS,
  ...PRICING_MIGRATIONS,
  ...NOTIFICATIONS_MIGRATIONS,
];
