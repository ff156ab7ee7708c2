/** Timestamps in responses: ISO 8601 in UTC, or null. */
export const isoOrNull = (d: Date | null): string | null => (d ? d.toISOString() : null);
