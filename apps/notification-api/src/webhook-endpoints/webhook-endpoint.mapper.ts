import type { EventFilter, WebhookEndpointEntity } from '@fincore/notifications';
import type { ClientTlsSummary } from '@fincore/webhooks';
import { isoOrNull } from '../common/dates';
import type { ClientTlsResponse } from './endpoint-tls.schemas';
import type {
  PublicKeyResponse,
  RotateSecretResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './webhook-endpoint.schemas';

export function mapWebhookEndpoint(e: WebhookEndpointEntity): WebhookEndpointResponse {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    notificationTypeCodes: e.notificationTypeCodes,
    status: e.status,
    ordering: e.ordering,
    payload: e.payload,
    disabledReason: e.disabledReason,
    disabledAt: isoOrNull(e.disabledAt),
    failingSince: isoOrNull(e.failingSince),
    lastSuccessAt: isoOrNull(e.lastSuccessAt),
    rateLimit: e.rateLimit,
    signatureSchemes: e.signatureSchemes as WebhookEndpointResponse['signatureSchemes'],
    publicKey: e.publicKey,
    filter: (e.filter as EventFilter | null) ?? null,
    tls: mapClientTls(e.tlsSummary as ClientTlsSummary | null),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

/** The only answer that carries the secret in clear: the one creating the endpoint. */
export function mapWebhookEndpointWithSecret(
  e: WebhookEndpointEntity,
  secret: string,
): WebhookEndpointWithSecretResponse {
  return { ...mapWebhookEndpoint(e), secret };
}

export function mapRotatedSecret(
  e: WebhookEndpointEntity,
  secret: string,
  previousSecretExpiresAt: Date | null,
): RotateSecretResponse {
  return {
    id: e.id,
    secret,
    previousSecretExpiresAt: isoOrNull(previousSecretExpiresAt),
    publicKey: e.publicKey,
  };
}

/** The previous key only while it still signs. */
export function mapPublicKey(e: WebhookEndpointEntity, now: Date): PublicKeyResponse {
  const previousLive =
    !!e.previousPublicKey && !!e.previousSecretExpiresAt && e.previousSecretExpiresAt > now;
  return {
    id: e.id,
    publicKey: e.publicKey,
    previousPublicKey: previousLive ? e.previousPublicKey : null,
    previousPublicKeyExpiresAt: previousLive ? isoOrNull(e.previousSecretExpiresAt) : null,
  };
}

/** The certificate as identified, and only that the key and CAs exist. */
function mapClientTls(summary: ClientTlsSummary | null): ClientTlsResponse | null {
  if (!summary) return null;
  const { caCertificates, ...clientCertificate } = summary;
  return { clientCertificate, hasClientKey: true, caCertificates };
}
