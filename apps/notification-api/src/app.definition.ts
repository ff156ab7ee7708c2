import { type AppDefinition, PORTAL_PATH } from '@fincore/platform';
import { NotificationApiModule } from './notification-api.module';
import { mountPortal } from './portal/portal-routes';
import { serveAsyncApi } from './webhook-docs/asyncapi-route';

export const NotificationApiApp: AppDefinition = {
  name: 'notification-api',
  title: 'fincore notification API',
  description: 'Notification configuration, webhook endpoints and webhook deliveries.',
  module: NotificationApiModule,
  port: (config) => config.NOTIFICATION_API_PORT,
  portalSessions: true,
  home: PORTAL_PATH,
  configure: async (app, config) => {
    serveAsyncApi(app);
    await mountPortal(app, config);
  },
};
