import { randomInt } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { DatabaseFingerprint } from '../support/db-fingerprint';
import { RawResponse, sendRaw } from '../support/raw-http';
import { expectNoFindings as expectNone, Finding, Findings, InputKind } from './findings';
import { harmless, judge } from './judge';
import { malformedOf, malformedOfKind, mutationsFor } from './malformed';
import {
  Hints,
  OpenApiDoc,
  Operation,
  operationsOf,
  RequestParts,
  requestOf,
  toRaw,
} from './openapi-arbitraries';
import { ResponseSchemas } from './response-schemas';

export type { Finding, InputKind } from './findings';

/** Random requests per operation and kind (malformed: on top of one of each mutation); `FUZZ_RUNS` raises it. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const RANDOM_MALFORMED = Math.ceil(FUZZ_RUNS / 2);

/** A generous bound for one app's fuzz test, growing with the runs. */
export const fuzzTimeoutMs = (operations: number) => 60_000 + FUZZ_RUNS * operations * 1_000;

/**
 * The seed every operation's seed derives from: new for each run unless FUZZ_SEED replays one.
 * Printed at the start and with every failure.
 */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);
if (!Number.isSafeInteger(FUZZ_SEED))
  throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
console.log(`fuzz seed ${FUZZ_SEED} (replay a run with FUZZ_SEED=${FUZZ_SEED})`);

/** What the suite needs of one running app. */
export interface FuzzTarget {
  /** The spec file, for the replay command. */
  specFile: string;
  baseUrl: string;
  db: DataSource;
  doc: OpenApiDoc;
  token: string;
  hints: Hints;
  /** Hints of single operations, over `hints` (e.g. resources only a deletion may use up). */
  operationHints?: Record<string, Hints>;
  /** Whole valid bodies by operation id, for rules across fields (see `requestOf`). */
  bodies?: Record<string, fc.Arbitrary<unknown>>;
  /** Whole valid queries by operation id, for rules across parameters (see `requestOf`). */
  queries?: Record<string, fc.Arbitrary<Record<string, unknown>>>;
  /** Operation ids whose rejections record something on purpose (e.g. failed logins), "STATUS OP". */
  rejectionsThatWrite?: string[];
  /**
   * Operations that valid-shaped input cannot make succeed, with the only statuses they may give it;
   * every other operation must answer at least one valid-shaped request with a 2xx.
   */
  validShapedStatuses?: Record<string, number[]>;
}

/** The document the app serves at /docs-json. */
export async function loadDoc(baseUrl: string): Promise<OpenApiDoc> {
  const r = await fetch(`${baseUrl}/docs-json`);
  if (r.status !== 200) throw new Error(`/docs-json answered ${r.status}`);
  return (await r.json()) as OpenApiDoc;
}

export const expectNoFindings = (findings: Finding[]) => expectNone(findings, FUZZ_SEED);

interface Input {
  mutation?: string;
  parts: RequestParts;
  original?: RequestParts;
}

/** One app's run of one kind of input: what it has seen so far. */
class Run {
  readonly schemas: ResponseSchemas;
  readonly requestSchemas: ResponseSchemas;
  readonly findings: Findings;
  readonly statuses: Record<string, Record<number, number>> = {};
  private readonly fingerprint: DatabaseFingerprint;
  private last?: Map<string, string>;

  constructor(
    readonly target: FuzzTarget,
    readonly kind: InputKind,
  ) {
    this.schemas = new ResponseSchemas(target.doc);
    this.requestSchemas = new ResponseSchemas(target.doc, true);
    this.findings = new Findings(target.baseUrl);
    this.fingerprint = new DatabaseFingerprint(target.db);
  }

  /** Sends one request and judges the answer and what it wrote. */
  async exercise(op: Operation, { mutation, parts, original }: Input, replay: string): Promise<void> {
    const raw = toRaw(parts);
    const c = { operation: op.id, kind: this.kind, mutation, raw, replay };
    this.last ??= await this.fingerprint.take();
    let response: RawResponse;
    try {
      response = await sendRaw(this.target.baseUrl, raw);
    } catch (error) {
      this.findings.add(c, ['no answer', String(error)]);
      this.last = await this.fingerprint.take();
      return;
    }
    const seen = (this.statuses[op.id] ??= {});
    seen[response.status] = (seen[response.status] ?? 0) + 1;
    const now = await this.fingerprint.take();
    const changedTables = DatabaseFingerprint.changed(this.last, now);
    this.last = now;
    const wrong = judge(op, this.schemas, response, {
      kind: this.kind,
      allowed:
        mutation === undefined || harmless(op, this.requestSchemas, mutation, raw, toRaw(original ?? parts)),
      rejectionMayWrite: this.target.rejectionsThatWrite?.includes(`${response.status} ${op.id}`) ?? false,
      changedTables,
    });
    if (wrong) this.findings.add(c, wrong);
  }

  /** Every operation answered valid-shaped input with a 2xx, or only with the statuses it names. */
  checkSuccesses(operations: Operation[]): void {
    for (const op of operations) {
      const seen = Object.keys(this.statuses[op.id] ?? {}).map(Number);
      const allowed = this.target.validShapedStatuses?.[op.id];
      const wrong = allowed
        ? seen.filter((s) => !allowed.includes(s))
        : seen.some((s) => s < 300)
          ? []
          : seen;
      if (!wrong.length && seen.length) continue;
      const problem = allowed ? `statuses other than ${allowed.join(', ')}` : 'no 2xx for valid-shaped input';
      this.findings.add({ operation: op.id, kind: this.kind, replay: this.replay(op, '') }, [
        problem,
        `statuses seen: ${JSON.stringify(this.statuses[op.id] ?? {})}`,
      ]);
    }
  }

  replay(op: Operation, selector: string): string {
    return (
      `FUZZ_OP='${op.id}' FUZZ_SEED=${FUZZ_SEED} ${selector} NODE_OPTIONS=--experimental-vm-modules ` +
      `npx jest ${this.target.specFile} -t '${this.kind}'`
    );
  }
}

/**
 * Sends requests of the kind to every documented operation, one at a time, and judges each answer
 * (see `judge`): valid-shaped ones FUZZ_RUNS per operation, each of which must see a 2xx; malformed
 * ones one of each mutation kind that applies, then FUZZ_RUNS / 2 of random kinds. Failures do not
 * stop the run: each distinct (operation, mutation, class) is kept once, with a curl command and a
 * replay (FUZZ_OP and FUZZ_SEED, with FUZZ_MUTATION for one of the first, FUZZ_PATH for a random one).
 */
export async function fuzz(target: FuzzTarget, kind: InputKind): Promise<Finding[]> {
  const run = new Run(target, kind);
  const { FUZZ_OP: only, FUZZ_PATH: path, FUZZ_MUTATION: mutationOnly } = process.env;
  // deletions last, so that the other operations still find the seeded resources
  const operations = operationsOf(target.doc)
    .filter((op) => !only || op.id === only)
    .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  for (const op of operations) {
    const valid = requestOf(
      target.doc,
      op,
      target.token,
      { ...target.hints, ...target.operationHints?.[op.id] },
      { body: target.bodies?.[op.id], query: target.queries?.[op.id] },
    );
    const seed = seedOf(op, kind);
    if (kind === 'malformed' && path === undefined) {
      for (const [i, mutation] of Object.keys(mutationsFor(op)).entries()) {
        if (mutationOnly && mutation !== mutationOnly) continue;
        const [input] = fc.sample(malformedOfKind(op, valid, mutation), {
          seed: (seed + i + 1) | 0,
          numRuns: 1,
        });
        await run.exercise(op, input, run.replay(op, `FUZZ_MUTATION='${mutation}'`));
      }
    }
    if (mutationOnly) continue;
    const inputs: fc.Arbitrary<Input> =
      kind === 'malformed' ? malformedOf(op, valid) : valid.map((parts) => ({ parts }));
    let runIndex = 0;
    // fc.assert: an error of the harness itself (the database unreachable, a bug) fails the test
    await fc.assert(
      fc.asyncProperty(inputs, async (input) => {
        const at = path ?? String(runIndex++);
        await run.exercise(op, input, run.replay(op, `FUZZ_PATH=${at}`));
      }),
      {
        seed,
        numRuns: path !== undefined ? 1 : kind === 'malformed' ? RANDOM_MALFORMED : FUZZ_RUNS,
        ...(path !== undefined ? { path } : {}),
      },
    );
  }
  if (kind === 'valid-shaped' && path === undefined) run.checkSuccesses(operations);
  const list = run.findings.list();
  // FUZZ_REPORT=<file prefix> keeps the findings and the statuses seen per operation, to judge coverage
  if (process.env.FUZZ_REPORT)
    writeFileSync(
      `${process.env.FUZZ_REPORT}.${kind}.json`,
      JSON.stringify({ seed: FUZZ_SEED, findings: list, statuses: run.statuses }, null, 1),
    );
  return list;
}

/** The operation's seed: from FUZZ_SEED and the operation, so that FUZZ_OP replays it alone. */
function seedOf(op: Operation, kind: InputKind): number {
  let hash = FUZZ_SEED ^ (kind === 'malformed' ? 0x5bd1e995 : 0);
  for (const char of op.id) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}
