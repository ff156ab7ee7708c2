import { Module } from '@nestjs/common';
import { EventsModule } from '@fincore/events';
import { NotificationsModule } from './notifications/notifications.module';

@Module({
  imports: [EventsModule.forRoot({ relay: true }), NotificationsModule],
})
export class NotificationApiModule {}
