import { eventually } from './http';

/** Until notification-api at `url` holds `count` waiting reads of the event stream (its gauge). */
export function untilReadsWait(url: string, count = 1): Promise<true> {
  const gauge = new RegExp(`^event_stream_waiting_reads ${count}$`, 'm');
  return eventually(async () => gauge.test(await (await fetch(`${url}/metrics`)).text()) || undefined, {
    what: `${count} read(s) to wait`,
  });
}
