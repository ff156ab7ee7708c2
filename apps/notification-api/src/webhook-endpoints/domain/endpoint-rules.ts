/** Until when a rotated-out secret still signs deliveries, so receivers can switch without losing any. */
export function previousSecretExpiry(now: Date, graceHours: number): Date | null {
  return graceHours > 0 ? new Date(now.getTime() + graceHours * 3600 * 1000) : null;
}

/** Endpoints per tenant: enough for real integrations, few enough that one event cannot fan out unboundedly. */
export const MAX_ENDPOINTS_PER_TENANT = 20;
