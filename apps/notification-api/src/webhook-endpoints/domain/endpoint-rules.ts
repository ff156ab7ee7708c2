/** Until when a rotated-out secret still signs deliveries, so receivers can switch without losing any. */
export function previousSecretExpiry(now: Date, graceHours: number): Date | null {
  return graceHours > 0 ? new Date(now.getTime() + graceHours * 3600 * 1000) : null;
}

/** Highest per-endpoint rate limit (deliveries per second): beyond it a limit protects no receiver. */
export const MAX_RATE_LIMIT = 1000;

/** Signature schemes once an update is applied: given ones replace the stored ones, in a stable order. */
export function signatureSchemesAfter(stored: readonly string[], requested?: readonly string[]): string[] {
  const schemes = requested ?? stored;
  return ['v1', 'v1a'].filter((scheme) => schemes.includes(scheme));
}

/** An endpoint signing v1a needs an ed25519 key pair; endpoints made before v1a existed have none yet. */
export function needsSigningKeyPair(schemes: readonly string[], hasKeyPair: boolean): boolean {
  return schemes.includes('v1a') && !hasKeyPair;
}
