import { setTimeout as sleep } from 'node:timers/promises';
import { changeSettings, STANDARD_CODES } from '../../support/card-settings';
import type { ApiClient, ApiResponse } from '../../support/http';
import type { TenantFixture } from '../../support/stack';

const isExpected = (status: number) => (status >= 200 && status < 300) || status === 503;

/** The key that ties an acknowledged change to its webhook: person id and the first name it set. */
export const changeKey = (personId: string, firstName: string) => `${personId}/${firstName}`;

/**
 * One kind of change a stream makes, each committing exactly one event of `type` on its subject,
 * and how a change and its event's data name the same key.
 */
export interface ChangeKind {
  type: string;
  send(api: ApiClient, tenant: TenantFixture, subject: string, n: number): Promise<ApiResponse>;
  key(subject: string, n: number): string;
  keyOfEvent(data: any): string;
}

/** PATCH firstName `c<n>`: one PERSON_UPDATED per rename. */
export const personRenames: ChangeKind = {
  type: 'PERSON_UPDATED',
  send: (api, tenant, personId, n) =>
    api.patch(`/api/v1/persons/${personId}`, { firstName: `c${n}` }, { token: tenant.token }),
  key: (personId, n) => changeKey(personId, `c${n}`),
  keyOfEvent: (data) => changeKey(data?.personId, data?.person?.firstName),
};

/**
 * Settings change n of a card: the bits of n pick renewable, xpaysAllowed and which STANDARD codes
 * are allowed, so consecutive changes always differ and 256 in a row never repeat.
 */
const cardSettings = (n: number) => ({
  authorisationTypes: STANDARD_CODES.map((serviceCode, bit) => ({
    serviceCode,
    allowed: ((n >> (bit + 2)) & 1) === 1,
  })),
  renewable: (n & 1) === 1,
  xpaysAllowed: (n & 2) === 2,
});
const settingsKey = (cardId: string, s: ReturnType<typeof cardSettings>) =>
  `${cardId}/${s.renewable ? 'R' : '-'}${s.xpaysAllowed ? 'X' : '-'}` +
  [...s.authorisationTypes]
    .sort((a, b) => a.serviceCode.localeCompare(b.serviceCode))
    .map((a) => `${a.serviceCode}${a.allowed ? '+' : '-'}`)
    .join('');

/** POST …/settings/change through card-api: one CARD_SETTINGS_CHANGED per change. */
export const cardSettingsChanges: ChangeKind = {
  type: 'CARD_SETTINGS_CHANGED',
  send: (api, tenant, cardId, n) => changeSettings(api, tenant, cardId, cardSettings(n)),
  key: (cardId, n) => settingsKey(cardId, cardSettings(n)),
  keyOfEvent: (data) => (data?.current ? settingsKey(data.cardId, data.current) : 'no settings'),
};

/**
 * Concurrent loops, one per subject, each changing its subject at a steady pace: every 2xx is one
 * acknowledged change with exactly one event, recorded by key.
 */
export class ChangeStream {
  readonly acknowledged = new Set<string>();
  /** Answers by status; 0 counts requests that got no HTTP answer at all. */
  readonly statuses = new Map<number, number>();
  /** The first few answers other than 2xx and 503, with their bodies, to say what went wrong. */
  readonly unexpected: string[] = [];
  /** Requests sent and not answered yet. */
  inFlight = 0;
  /** Requests that reached a server and lost their answer (the connection broke, not refused). */
  cut = 0;
  private stopped = false;
  /** When the last loop ended; recovery is measured from here. */
  stoppedAt?: number;
  private loops: Promise<void>[] = [];

  constructor(
    /** Answers the API the next request goes to, so a restarted API takes over. */
    private readonly api: () => ApiClient,
    private readonly tenant: TenantFixture,
    readonly subjects: string[],
    /** Pause between one loop's requests; the rate is about subjects / interval. */
    private readonly intervalMs = 100,
    readonly kind: ChangeKind = personRenames,
  ) {}

  start(): this {
    this.loops = this.subjects.map((subject) => this.loop(subject));
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
    this.stoppedAt ??= Date.now();
  }

  /** Statuses other than 2xx and 503, with how often each came. */
  unexpectedStatuses(): Record<number, number> {
    return Object.fromEntries([...this.statuses].filter(([status]) => !isExpected(status)));
  }

  private async loop(subject: string): Promise<void> {
    for (let n = 1; !this.stopped; n++) {
      this.inFlight++;
      const status = await this.kind.send(this.api(), this.tenant, subject, n).then(
        (r) => {
          if (!isExpected(r.status) && this.unexpected.length < 5)
            this.unexpected.push(`${r.status} ${r.text}`);
          return r.status;
        },
        (error: Error & { cause?: { code?: string } }) => {
          if (error.cause?.code !== 'ECONNREFUSED') this.cut++;
          if (this.unexpected.length < 5) this.unexpected.push(`no answer: ${error.message}`);
          return 0;
        },
      );
      this.inFlight--;
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      if (status >= 200 && status < 300) this.acknowledged.add(this.kind.key(subject, n));
      await sleep(this.intervalMs);
    }
  }
}
