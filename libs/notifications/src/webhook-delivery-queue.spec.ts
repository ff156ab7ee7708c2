import { getQueueToken } from '@nestjs/bullmq';
import { Test } from '@nestjs/testing';
import type { Queue } from 'bullmq';
import { QueueName, QueueRootModule } from '@fincore/events';
import { ConfigModule, loadConfig } from '@fincore/platform';
import { WebhookDeliveryQueueModule } from './webhook-delivery-queue';

describe('WebhookDeliveryQueueModule', () => {
  it('keeps finished jobs as the retention settings say', async () => {
    const config = loadConfig({
      QUEUE_COMPLETED_RETENTION_SECONDS: '600',
      QUEUE_COMPLETED_RETENTION_COUNT: '70',
      QUEUE_FAILED_RETENTION_SECONDS: '3600',
    });
    // The queue connects to Redis but writes nothing: only its options are read.
    const app = await Test.createTestingModule({
      imports: [ConfigModule.forRoot(config), QueueRootModule, WebhookDeliveryQueueModule],
    }).compile();
    const sut = app.get<Queue>(getQueueToken(QueueName.WebhookDeliveries));
    try {
      expect(sut.defaultJobOptions).toMatchObject({
        attempts: 8,
        removeOnComplete: { age: 600, count: 70 },
        removeOnFail: { age: 3600 },
      });
    } finally {
      await app.close();
    }
  });
});
