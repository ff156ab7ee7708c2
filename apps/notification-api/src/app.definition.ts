import type { AppDefinition } from '@fincore/platform';
import { NotificationApiModule } from './notification-api.module';
import { mountPortal } from './portal/portal-routes';

export const NotificationApiApp: AppDefinition = {
  name: 'notification-api',
  title: 'fincore notification API',
  description: 'Notification configuration, webhook endpoints and webhook deliveries.',
  module: NotificationApiModule,
  port: (config) => config.NOTIFICATION_API_PORT,
  portalSessions: true,
  configure: (app, config) => mountPortal(app, config),
};
