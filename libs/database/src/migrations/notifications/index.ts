import { NotificationsSchema1763700000600 } from './1763700000600-notifications-schema';

/** Migrations of the notifications schema, oldest first. */
export const NOTIFICATIONS_MIGRATIONS: Function[] = [NotificationsSchema1763700000600];
