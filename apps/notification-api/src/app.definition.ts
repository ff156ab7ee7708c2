import type { AppDefinition } from '@fincore/platform';
import { NotificationApiModule } from './notification-api.module';
import { serveAsyncApi } from './webhook-docs/asyncapi-route';

export const NotificationApiApp: AppDefinition = {
  name: 'notification-api',
  title: 'fincore notification API',
  description: 'Notification configuration, webhook endpoints and webhook deliveries.',
  module: NotificationApiModule,
  port: (config) => config.NOTIFICATION_API_PORT,
  configure: serveAsyncApi,
};
