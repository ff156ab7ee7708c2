import { setTimeout as sleep } from 'node:timers/promises';
import { signWebhook } from '@fincore/webhooks';
import { ListenState } from './listen-state';

export interface ListenOptions {
  /** The local receiver; without it each event is printed instead. */
  forwardTo?: string;
  /** notification-api's base URL. */
  url: string;
  token: string;
  types?: string;
  /** Where to start instead of the kept cursor: a cursor, or an ISO 8601 instant. */
  since?: string;
}

interface Io {
  out(line: string): void;
  err(line: string): void;
}

interface StreamedEvent {
  cursor: string;
  event: { id: string; type: string };
}

/** Where the next read starts: after a cursor, or at a time. */
type Start = { after?: string; since?: string };

/** --since takes an instant or a cursor: an instant starts with its date, a cursor never does. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

const WAIT_SECONDS = 25;
const FORWARD_TIMEOUT_MS = 10_000;
const BACKOFF_MS = { first: 500, max: 10_000 };

/**
 * Tails GET /api/v1/events and POSTs each event, signed per Standard Webhooks with a local secret,
 * to `forwardTo`, one at a time. The cursor moves only past an event the receiver accepted (2xx),
 * so a receiver that refuses or is down gets the same event again, with backoff. `stop` ends the
 * run between events (a forward under way finishes first), answering 0.
 */
export async function listen(
  options: ListenOptions,
  state: ListenState,
  io: Io,
  stop: AbortSignal,
): Promise<number> {
  const secret = state.secret();
  io.out(
    options.forwardTo
      ? `Forwarding events to ${options.forwardTo}, signed with ${secret}`
      : `Printing events (give --forward-to <url> to send them to a receiver)`,
  );
  const deliver = (item: StreamedEvent) =>
    options.forwardTo ? forward(item, options.forwardTo, secret, io) : print(item, io);
  let start: Start = startOf(options.since ?? state.cursor());
  let backoff = BACKOFF_MS.first;
  const pause = () => sleep(backoff, undefined, { signal: stop }).catch(() => undefined);
  while (!stop.aborted) {
    let page: { items: StreamedEvent[]; nextCursor: string | null };
    try {
      const query = new URLSearchParams({ waitSeconds: String(WAIT_SECONDS), limit: '100' });
      for (const [name, value] of Object.entries(start)) query.set(name, value);
      if (options.types) query.set('types', options.types);
      const response = await fetch(`${options.url}/api/v1/events?${query}`, {
        headers: { 'x-auth-token': options.token },
        signal: stop,
      });
      if (response.status >= 400 && response.status < 500) {
        io.err(`error: ${options.url} answered ${response.status}: ${await response.text()}`);
        return 1;
      }
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      page = (await response.json()) as typeof page;
    } catch (error) {
      if (stop.aborted) break;
      io.err(`cannot read events from ${options.url} (${(error as Error).message}); retrying`);
      await pause();
      backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      continue;
    }
    for (const item of page.items) {
      if (stop.aborted) return 0;
      while (!(await deliver(item))) {
        await pause();
        if (stop.aborted) return 0;
        backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      }
      backoff = BACKOFF_MS.first;
      start = { after: item.cursor };
      state.saveCursor(item.cursor);
    }
    if (!page.items.length && page.nextCursor && page.nextCursor !== start.after) {
      start = { after: page.nextCursor };
      state.saveCursor(page.nextCursor);
    }
  }
  return 0;
}

function startOf(since: string | undefined): Start {
  if (!since) return {};
  return INSTANT.test(since) ? { since } : { after: since };
}

/** The event's line and its envelope as one JSON line: for a look before there is a receiver. */
async function print(item: StreamedEvent, io: Io): Promise<boolean> {
  io.out(`${new Date().toISOString()}  ${item.event.type}  ${item.event.id}`);
  io.out(JSON.stringify(item.event));
  return true;
}

/** One attempt; true when the receiver accepted it. Prints one line either way. */
async function forward(item: StreamedEvent, target: string, secret: string, io: Io): Promise<boolean> {
  const body = JSON.stringify(item.event);
  const started = Date.now();
  const line = (outcome: string) =>
    io.out(
      `${new Date().toISOString()}  ${item.event.type}  ${item.event.id}  ${outcome} (${Date.now() - started} ms)`,
    );
  try {
    const response = await fetch(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook({ webhookId: item.event.id, body, secrets: [secret] }),
      },
      body,
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    line(String(response.status));
    return response.ok;
  } catch (error) {
    line(
      `failed: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`,
    );
    return false;
  }
}
