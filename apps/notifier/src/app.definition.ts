import type { AppDefinition } from '@fincore/platform';
import { mountBullBoard } from './admin/bull-board';
import { NotifierModule } from './notifier.module';

export const NotifierApp: AppDefinition = {
  name: 'notifier',
  title: 'fincore notifier',
  description: 'Worker: domain events to signed webhook deliveries. Bull Board at /admin/queues.',
  module: NotifierModule,
  port: (config) => config.NOTIFIER_PORT,
  openApi: false,
  configure: (app, config) => mountBullBoard(app, config),
};
