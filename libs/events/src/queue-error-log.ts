import { WorkerHost } from '@nestjs/bullmq';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { logConnectionErrors } from '@fincore/platform';
import { Queue } from 'bullmq';

/**
 * Every BullMQ queue and worker of the app, with their connections (a worker's blocking one
 * included), reports its errors through the app's logger: a queue or worker without an `error`
 * listener writes each failed reconnect to stderr as plain text.
 */
@Injectable()
export class QueueErrorLog implements OnApplicationBootstrap {
  private readonly logger = new Logger('BullMQ');

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    for (const { instance } of this.discovery.getProviders()) {
      if (instance instanceof Queue) logConnectionErrors(instance, `Queue ${instance.name}`, this.logger);
      else if (instance instanceof WorkerHost)
        logConnectionErrors(instance.worker, `Worker ${instance.worker.name}`, this.logger);
    }
  }
}
