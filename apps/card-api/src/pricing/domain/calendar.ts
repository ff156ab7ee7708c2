/** True for a real calendar date written YYYY-MM-DD (2026-02-30 and 2025-02-29 are not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Inclusive validity: from <= date and (no end or date <= to). ISO dates compare as strings. */
export function isWithin(date: string, from: string, to: string | null): boolean {
  return from <= date && (to === null || date <= to);
}

/** Two inclusive periods (open end = null) share at least one day. */
export function periodsOverlap(
  a: { validFrom: string; validTo: string | null },
  b: { validFrom: string; validTo: string | null },
): boolean {
  return (a.validTo === null || b.validFrom <= a.validTo) && (b.validTo === null || a.validFrom <= b.validTo);
}
