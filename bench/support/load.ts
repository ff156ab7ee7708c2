import autocannon from 'autocannon';
import { assertLoopback } from './settings';

export interface LoadResult {
  /** Successful (2xx) responses per second over the measured window. */
  okPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface LoadSpec {
  url: string;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  method: string;
  headers: Record<string, string>;
  /** Called for every request: the path and body to send (lets a scenario rotate cards, flags, ...). */
  next: () => { path: string; body?: string };
}

/**
 * Closed-loop load with autocannon: `connections` clients each sending the next request as soon
 * as the previous answered, first for the warm-up (discarded), then for the measured seconds.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  assertLoopback(spec.url, 'load target');
  const run = (seconds: number) =>
    autocannon({
      url: spec.url,
      connections: spec.connections,
      duration: seconds,
      timeout: 10,
      method: spec.method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...spec.headers },
      requests: [
        {
          setupRequest: (request) => {
            const { path, body } = spec.next();
            return { ...request, path, body };
          },
        },
      ],
    });
  if (spec.warmupSeconds > 0) await run(spec.warmupSeconds);
  const r = await run(spec.seconds);
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]),
  );
  const ok = Object.entries(statusCodes)
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    okPerSecond: ok / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    total: Object.values(statusCodes).reduce((a, b) => a + b, 0),
    non2xx: r.non2xx,
    errors: r.errors,
    statusCodes,
  };
}

/** Notes about a load run that did not go cleanly (non-2xx answers, connection errors). */
export function loadNotes(system: string, r: LoadResult): string[] {
  const notes: string[] = [];
  if (r.non2xx > 0)
    notes.push(
      `${system}: ${r.non2xx} of ${r.total} answers were not 2xx (${JSON.stringify(r.statusCodes)}); only 2xx are counted`,
    );
  if (r.errors > 0) notes.push(`${system}: ${r.errors} connection errors/timeouts`);
  return notes;
}

/** A small JSON client for setting up scenarios through the real APIs. */
export async function api<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  expect: number[] = [200, 201],
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${baseUrl}${path}`, {
    method,
    // No content-type without a body: the APIs refuse an empty JSON body.
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      accept: 'application/json',
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!expect.includes(r.status)) {
    throw new ApiError(`${method} ${path} answered ${r.status}: ${text.slice(0, 500)}`, r.status, parsed);
  }
  return { status: r.status, body: parsed as T };
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: any,
  ) {
    super(message);
  }
}
