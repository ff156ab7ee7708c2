import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from '../../support/http';

const isExpected = (status: number) => (status >= 200 && status < 300) || status === 503;

/** The key that ties an acknowledged change to its webhook: person id and the first name it set. */
export const changeKey = (personId: string, firstName: string) => `${personId}/${firstName}`;

/**
 * Concurrent loops, one per person, each renaming its person (PATCH firstName) at a steady pace:
 * every 2xx is one acknowledged change with exactly one PERSON_UPDATED event, recorded by key.
 */
export class ChangeStream {
  readonly acknowledged = new Set<string>();
  /** Answers by status; 0 counts requests that got no HTTP answer at all. */
  readonly statuses = new Map<number, number>();
  /** The first few answers other than 2xx and 503, with their bodies, to say what went wrong. */
  readonly unexpected: string[] = [];
  private stopped = false;
  /** When the last loop ended; recovery is measured from here. */
  stoppedAt?: number;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly token: string,
    private readonly personIds: string[],
    /** Pause between one loop's requests; the rate is about personIds / interval. */
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.loops = this.personIds.map((personId) => this.loop(personId));
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.stoppedAt = Date.now();
  }

  /** Statuses other than 2xx and 503, with how often each came. */
  unexpectedStatuses(): Record<number, number> {
    return Object.fromEntries([...this.statuses].filter(([status]) => !isExpected(status)));
  }

  private async loop(personId: string): Promise<void> {
    for (let n = 1; !this.stopped; n++) {
      const firstName = `c${n}`;
      const status = await this.api
        .patch(`/api/v1/persons/${personId}`, { firstName }, { token: this.token })
        .then(
          (r) => {
            if (!isExpected(r.status) && this.unexpected.length < 5)
              this.unexpected.push(`${r.status} ${r.text}`);
            return r.status;
          },
          (error: Error) => {
            if (this.unexpected.length < 5) this.unexpected.push(`no answer: ${error.message}`);
            return 0;
          },
        );
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      if (status >= 200 && status < 300) this.acknowledged.add(changeKey(personId, firstName));
      await sleep(this.intervalMs);
    }
  }
}
