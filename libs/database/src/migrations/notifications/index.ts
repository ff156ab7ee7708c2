import { NotificationsSchema1763700000600 } from './1763700000600-notifications-schema';
import { NotificationsDeliveryRetention1763700000840 } from './1763700000840-notifications-delivery-retention';
import { NotificationsSubjectOrdering1763700000910 } from './1763700000910-notifications-subject-ordering';
import { NotificationsEndpointPacingAndSigningKeys1763700000920 } from './1763700000920-notifications-endpoint-pacing-and-signing-keys';
import { NotificationsEndpointPausedUntil1763700000930 } from './1763700000930-notifications-endpoint-paused-until';
import { NotificationsEndpointSubscriberFeatures1763700001100 } from './1763700001100-notifications-endpoint-subscriber-features';
import { NotificationsEndpointPayload1763700001220 } from './1763700001220-notifications-endpoint-payload';
import { NotificationsDeliverySubjectErased1763700001230 } from './1763700001230-notifications-delivery-subject-erased';
import { NotificationsPendingPosition1763700001300 } from './1763700001300-notifications-pending-position';
import { NotificationsAttemptRequestHeaders1763700001310 } from './1763700001310-notifications-attempt-request-headers';
import { NotificationsFewerDeliveryIndexes1763700001320 } from './1763700001320-notifications-fewer-delivery-indexes';

/** Migrations of the notifications schema, oldest first. */
export const NOTIFICATIONS_MIGRATIONS: Function[] = [
  NotificationsSchema1763700000600,
  NotificationsDeliveryRetention1763700000840,
  NotificationsSubjectOrdering1763700000910,
  NotificationsEndpointPacingAndSigningKeys1763700000920,
  NotificationsEndpointPausedUntil1763700000930,
  NotificationsEndpointSubscriberFeatures1763700001100,
  NotificationsEndpointPayload1763700001220,
  NotificationsDeliverySubjectErased1763700001230,
  NotificationsPendingPosition1763700001300,
  NotificationsAttemptRequestHeaders1763700001310,
  NotificationsFewerDeliveryIndexes1763700001320,
];
