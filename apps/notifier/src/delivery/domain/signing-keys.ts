import type { DeliveryForAttempt } from '@fincore/notifications';

/** The sealed keys an attempt signs with. */
export interface SealedSigningKeys {
  /** HMAC secrets, for v1. */
  secrets: string[];
  /** ed25519 signing keys, for v1a. */
  signingKeys: string[];
}

/**
 * As the endpoint's schemes say: HMAC secrets for v1 and ed25519 keys for v1a, the current one,
 * and the previous one while its grace period runs.
 */
export function signingKeysInUse(endpoint: DeliveryForAttempt['endpoint'], now: Date): SealedSigningKeys {
  const inGrace = !!endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  const keys = (current: string | null, previous: string | null) =>
    [current, inGrace ? previous : null].filter((k): k is string => k !== null);
  const schemes = endpoint.signatureSchemes;
  return {
    secrets: schemes.includes('v1') ? keys(endpoint.secretSealed, endpoint.previousSecretSealed) : [],
    signingKeys: schemes.includes('v1a')
      ? keys(endpoint.signingKeySealed, endpoint.previousSigningKeySealed)
      : [],
  };
}
