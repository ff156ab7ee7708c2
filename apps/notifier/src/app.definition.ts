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
  // Claims, deliveries and attempts all follow from outbox rows the APIs committed durably. A crash
  // that loses the last of them leaves events unprocessed and deliveries pending, which the
  // reconcilers hand out again (at least once, with the same webhook-id).
  asynchronousCommit: true,
  configure: (app, config) => mountBullBoard(app, config),
};
