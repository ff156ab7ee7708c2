import { defineProblems } from '@fincore/platform';

/** Problem codes of notification configuration, webhook endpoints and webhook deliveries. */
const problems = defineProblems({
  notification_channel_not_implemented: {
    status: 422,
    title: { en: 'Channel not implemented', de: 'Kanal nicht implementiert' },
    detail: {
      en: 'Channel {channelCode} is known but not available yet; available: {available}.',
      de: 'Der Kanal {channelCode} ist bekannt, aber noch nicht verfügbar; verfügbar: {available}.',
    },
  },
  webhook_url_refused: {
    status: 422,
    title: { en: 'Webhook URL refused', de: 'Webhook-URL abgelehnt' },
    detail: {
      en: 'The URL cannot receive webhooks: {reason}.',
      de: 'Die URL kann keine Webhooks empfangen: {reason}.',
    },
  },
  webhook_endpoint_not_found: {
    status: 404,
    title: { en: 'Webhook endpoint not found', de: 'Webhook-Endpunkt nicht gefunden' },
    detail: {
      en: 'No webhook endpoint {endpointId} exists.',
      de: 'Es gibt keinen Webhook-Endpunkt {endpointId}.',
    },
  },
  webhook_endpoint_limit_reached: {
    status: 422,
    title: { en: 'Too many webhook endpoints', de: 'Zu viele Webhook-Endpunkte' },
    detail: {
      en: 'A tenant can have at most {max} webhook endpoints; delete one first.',
      de: 'Ein Mandant kann höchstens {max} Webhook-Endpunkte haben; löschen Sie zuerst einen.',
    },
  },
  webhook_endpoint_disabled: {
    status: 409,
    title: { en: 'Webhook endpoint disabled', de: 'Webhook-Endpunkt deaktiviert' },
    detail: {
      en: 'Webhook endpoint {endpointId} is disabled or deleted; enable it first.',
      de: 'Der Webhook-Endpunkt {endpointId} ist deaktiviert oder gelöscht; aktivieren Sie ihn zuerst.',
    },
  },
  webhook_delivery_not_found: {
    status: 404,
    title: { en: 'Webhook delivery not found', de: 'Webhook-Zustellung nicht gefunden' },
    detail: {
      en: 'No webhook delivery {deliveryId} exists.',
      de: 'Es gibt keine Webhook-Zustellung {deliveryId}.',
    },
  },
  webhook_delivery_in_progress: {
    status: 409,
    title: { en: 'Delivery in progress', de: 'Zustellung läuft' },
    detail: {
      en: 'Webhook delivery {deliveryId} is due now and may be under way; it is retried automatically.',
      de: 'Die Webhook-Zustellung {deliveryId} ist jetzt fällig und wird womöglich gerade gesendet; sie wird automatisch wiederholt.',
    },
  },
});

export const channelNotImplemented = (channelCode: string, available: readonly string[]) =>
  problems.notification_channel_not_implemented(
    { channelCode, available },
    {
      errors: [
        {
          field: 'channelCode',
          message: `channel ${channelCode} is not implemented; available: ${available.join(', ')}`,
        },
      ],
    },
  );
/** `reason` is the refusal's machine code, `message` its English sentence. */
export const webhookUrlRefused = (refusal: { message: string; reason: string }) =>
  problems.webhook_url_refused(
    { reason: refusal.message },
    { errors: [{ field: 'url', message: refusal.message, code: refusal.reason }] },
  );
export const webhookEndpointNotFound = (endpointId: string) =>
  problems.webhook_endpoint_not_found({ endpointId });
export const webhookEndpointLimitReached = (max: number) => problems.webhook_endpoint_limit_reached({ max });
export const webhookEndpointDisabled = (endpointId: string) =>
  problems.webhook_endpoint_disabled({ endpointId });
export const webhookDeliveryNotFound = (deliveryId: string) =>
  problems.webhook_delivery_not_found({ deliveryId });
export const webhookDeliveryInProgress = (deliveryId: string) =>
  problems.webhook_delivery_in_progress({ deliveryId });
