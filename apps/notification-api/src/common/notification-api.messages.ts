import { registerMessages } from '@fincore/platform';

registerMessages({
  notification_channel_not_implemented: {
    title: { en: 'Channel not implemented', de: 'Kanal nicht implementiert' },
    detail: {
      en: 'Channel {channelCode} is known but not available yet; available: {available}.',
      de: 'Der Kanal {channelCode} ist bekannt, aber noch nicht verfügbar; verfügbar: {available}.',
    },
  },
  webhook_url_refused: {
    title: { en: 'Webhook URL refused', de: 'Webhook-URL abgelehnt' },
    detail: {
      en: 'The URL cannot receive webhooks: {reason}.',
      de: 'Die URL kann keine Webhooks empfangen: {reason}.',
    },
  },
  webhook_endpoint_not_found: {
    title: { en: 'Webhook endpoint not found', de: 'Webhook-Endpunkt nicht gefunden' },
    detail: {
      en: 'No webhook endpoint {endpointId} exists.',
      de: 'Es gibt keinen Webhook-Endpunkt {endpointId}.',
    },
  },
  webhook_endpoint_limit_reached: {
    title: { en: 'Too many webhook endpoints', de: 'Zu viele Webhook-Endpunkte' },
    detail: {
      en: 'A tenant can have at most {max} webhook endpoints; delete one first.',
      de: 'Ein Mandant kann höchstens {max} Webhook-Endpunkte haben; löschen Sie zuerst einen.',
    },
  },
  webhook_endpoint_disabled: {
    title: { en: 'Webhook endpoint disabled', de: 'Webhook-Endpunkt deaktiviert' },
    detail: {
      en: 'Webhook endpoint {endpointId} is disabled or deleted; enable it first.',
      de: 'Der Webhook-Endpunkt {endpointId} ist deaktiviert oder gelöscht; aktivieren Sie ihn zuerst.',
    },
  },
  webhook_delivery_not_found: {
    title: { en: 'Webhook delivery not found', de: 'Webhook-Zustellung nicht gefunden' },
    detail: {
      en: 'No webhook delivery {deliveryId} exists.',
      de: 'Es gibt keine Webhook-Zustellung {deliveryId}.',
    },
  },
  webhook_delivery_in_progress: {
    title: { en: 'Delivery in progress', de: 'Zustellung läuft' },
    detail: {
      en: 'Webhook delivery {deliveryId} is still pending; it is retried automatically.',
      de: 'Die Webhook-Zustellung {deliveryId} ist noch ausstehend; sie wird automatisch wiederholt.',
    },
  },
});
