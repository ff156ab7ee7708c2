import { Injectable } from '@nestjs/common';
import { type DeliveryForAttempt, webhookBody } from '@fincore/notifications';
import type { StoredEvent } from '@fincore/events';
import { clientTlsOptions, SecretBox, signWebhook } from '@fincore/webhooks';
import { signingKeysInUse } from './domain/signing-keys';

/** The request body of one attempt, its Standard Webhooks headers, and the client certificate to present. */
export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
  /** Mutual TLS material opened from the endpoint's sealed copy; undefined: none. */
  tls?: ReturnType<typeof clientTlsOptions>;
}

/**
 * Builds and signs the webhook of an attempt with the keys its endpoint signs with now, and opens
 * the client certificate the endpoint asks to be presented.
 */
@Injectable()
export class DeliverySigner {
  constructor(private readonly secrets: SecretBox) {}

  /** The body is built per endpoint from the event as stored now: thin for a THIN endpoint. */
  sign(delivery: DeliveryForAttempt, event: StoredEvent, now: Date): SignedWebhook {
    const { webhookId, body } = webhookBody(delivery, event);
    const sealed = signingKeysInUse(delivery.endpoint, now);
    // webhook-id = event id: identical on every retry and replay, so receivers can deduplicate.
    const headers = signWebhook({
      webhookId,
      body,
      timestamp: now,
      secrets: sealed.secrets.map((k) => this.secrets.open(k)),
      signingKeys: sealed.signingKeys.map((k) => this.secrets.open(k)),
    });
    const tls = delivery.endpoint.tlsSealed
      ? clientTlsOptions(this.secrets.open(delivery.endpoint.tlsSealed))
      : undefined;
    return { body, headers: { ...headers }, tls };
  }
}
