/**
 * Time windows as people pick them (datetime-local inputs, in the browser's time zone) and as the
 * API takes them (UTC instants).
 */

const LOCAL_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** What a datetime-local input shows for the instant: the browser's local time, to the minute. */
export function localInputOf(instant: string | undefined): string {
  if (!instant) return '';
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The UTC instant a datetime-local value means here; undefined for an empty or incomplete one. */
export function instantOfLocalInput(value: string): string | undefined {
  if (!LOCAL_INPUT.test(value)) return undefined;
  // A date-time without an offset is local time (ECMAScript's Date).
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Why a window cannot be asked for: its end not after its start (an open end never is). */
export function windowProblem(since?: string, until?: string): 'windowEndsBeforeStart' | undefined {
  return since && until && Date.parse(until) <= Date.parse(since) ? 'windowEndsBeforeStart' : undefined;
}

export type ReplayWindow =
  { body: { since: string; until?: string } } | { problem: 'replayStartRequired' | 'windowEndsBeforeStart' };

/**
 * The replay request for a window picked in two datetime-local inputs: a start is needed, an empty
 * end means now, and the window must end after it starts.
 */
export function replayWindowOf(from: string, to: string, now = new Date()): ReplayWindow {
  const since = instantOfLocalInput(from);
  if (!since) return { problem: 'replayStartRequired' };
  const until = instantOfLocalInput(to);
  const problem = windowProblem(since, until ?? now.toISOString());
  if (problem) return { problem };
  return { body: until ? { since, until } : { since } };
}
