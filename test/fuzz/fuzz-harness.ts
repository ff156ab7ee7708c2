import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { malformedOf } from './malformed';
import {
  Hints,
  OpenApiDoc,
  Operation,
  operationsOf,
  RequestParts,
  requestOf,
  toRaw,
} from './openapi-arbitraries';
import { RawRequest, RawResponse, sendRaw, toCurl } from '../support/raw-http';
import { DatabaseFingerprint } from '../support/db-fingerprint';
import { ResponseSchemas } from './response-schemas';

/** Runs per operation and kind of input; `FUZZ_RUNS` raises it for a longer hunt. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 20);

/** A generous bound for one app's fuzz test, growing with the runs. */
export const fuzzTimeoutMs = (operations: number) => 60_000 + FUZZ_RUNS * operations * 500;

export type InputKind = 'valid-shaped' | 'malformed';

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
  /** Operation ids whose rejections record something on purpose (e.g. failed logins), "STATUS OP". */
  rejectionsThatWrite?: string[];
}

/** One distinct kind of failure, with the first request that showed it and how to replay it. */
export interface Finding {
  operation: string;
  kind: InputKind;
  mutation?: string;
  problem: string;
  detail: string;
  curl: string;
  replay: string;
  occurrences: number;
}

/** The document the app serves at /docs-json. */
export async function loadDoc(baseUrl: string): Promise<OpenApiDoc> {
  const r = await fetch(`${baseUrl}/docs-json`);
  if (r.status !== 200) throw new Error(`/docs-json answered ${r.status}`);
  return (await r.json()) as OpenApiDoc;
}

const CODE = /^[a-z_]+$/;

/** What is wrong with an answer, as [stable class, detail], or undefined when it is right. */
function judge(
  op: Operation,
  schemas: ResponseSchemas,
  response: RawResponse,
  changedTables: string[],
  rejectionMayWrite: boolean,
): [string, string] | undefined {
  const { status, headers, json } = response;
  const type = headers['content-type'] ?? '';
  const excerpt = response.text.slice(0, 300);
  if (status >= 500) return [`${status}`, excerpt];
  if (status >= 400) {
    if (!type.startsWith('application/problem+json'))
      return [`${status} not problem+json`, `content-type ${JSON.stringify(type)}: ${excerpt}`];
    const code = (json as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || !CODE.test(code)) return [`${status} without a stable code`, excerpt];
    if (changedTables.length && !rejectionMayWrite)
      return [`${status} ${code} changed the database`, `tables: ${changedTables.join(', ')}`];
    return undefined;
  }
  if (status < 200 || status >= 300) return [`unexpected status ${status}`, excerpt];
  const documented = op.responses[String(status)];
  if (!documented) return [`undocumented status ${status}`, excerpt];
  const schema = documented.content?.['application/json']?.schema;
  if (!schema)
    return status === 204 || !response.body.length ? undefined : [`${status} body not documented`, excerpt];
  if (!type.startsWith('application/json')) return [`${status} not application/json`, type];
  const errors = schemas.errors(schema, json);
  return errors
    ? [`${status} body does not match the documented schema`, `${errors}: ${excerpt}`]
    : undefined;
}

/**
 * The seed the operations' seeds derive from (printed with every finding): fixed unless FUZZ_SEED
 * says otherwise, so that `npm test` sends the same requests each run; `FUZZ_SEED=random` explores.
 */
const baseSeed =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED ?? 20_261_123);

/**
 * Sends FUZZ_RUNS requests of the kind to every documented operation, one at a time, and judges
 * each answer: no 5xx; a 4xx is problem+json with a stable code and leaves the database as it was;
 * a 2xx has a documented status and a body that fits the documented schema. Failures do not stop
 * the run: each distinct (operation, mutation, class) is kept once, with a curl command and a replay.
 */
export async function fuzz(target: FuzzTarget, kind: InputKind): Promise<Finding[]> {
  const schemas = new ResponseSchemas(target.doc);
  const fingerprint = new DatabaseFingerprint(target.db);
  const findings = new Map<string, Finding>();
  const statuses: Record<string, Record<number, number>> = {};
  const only = process.env.FUZZ_OP;
  // deletions last, so that the other operations still find the seeded resources
  const operations = operationsOf(target.doc).sort(
    (a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
  );
  let last = await fingerprint.take();
  for (const [index, op] of operations.entries()) {
    if (only && op.id !== only) continue;
    const valid = requestOf(
      target.doc,
      op,
      target.token,
      { ...target.hints, ...target.operationHints?.[op.id] },
      target.bodies?.[op.id],
    );
    const inputs: fc.Arbitrary<{ mutation?: string; parts: RequestParts }> =
      kind === 'malformed' ? malformedOf(op, valid) : valid.map((parts) => ({ parts }));
    const seed = (baseSeed + index * 7919 + (kind === 'malformed' ? 1 : 0)) | 0;
    let run = 0;
    const property = fc.asyncProperty(inputs, async ({ mutation, parts }) => {
      const path = process.env.FUZZ_PATH ?? String(run++);
      const raw = toRaw(parts);
      let response: RawResponse;
      try {
        response = await sendRaw(target.baseUrl, raw);
      } catch (error) {
        record(findings, target, { op, kind, mutation, raw, seed, path }, ['no answer', String(error)]);
        last = await fingerprint.take();
        return true;
      }
      const seen = (statuses[op.id] ??= {});
      seen[response.status] = (seen[response.status] ?? 0) + 1;
      const now = await fingerprint.take();
      const changed = response.status >= 400 ? DatabaseFingerprint.changed(last, now) : [];
      last = now;
      const mayWrite = target.rejectionsThatWrite?.includes(`${response.status} ${op.id}`) ?? false;
      const wrong = judge(op, schemas, response, changed, mayWrite);
      if (wrong) record(findings, target, { op, kind, mutation, raw, seed, path }, wrong);
      return true;
    });
    await fc.check(property, {
      seed,
      numRuns: process.env.FUZZ_PATH ? 1 : FUZZ_RUNS,
      ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    });
  }
  const list = [...findings.values()];
  // FUZZ_REPORT=<file prefix> keeps the findings and the statuses seen per operation, to judge coverage
  if (process.env.FUZZ_REPORT)
    writeFileSync(
      `${process.env.FUZZ_REPORT}.${kind}.json`,
      JSON.stringify({ findings: list, statuses }, null, 1),
    );
  return list;
}

interface Case {
  op: Operation;
  kind: InputKind;
  mutation?: string;
  raw: RawRequest;
  seed: number;
  path: string;
}

function record(
  findings: Map<string, Finding>,
  target: FuzzTarget,
  c: Case,
  [problem, detail]: [string, string],
) {
  const key = `${c.op.id}|${c.kind}|${c.mutation ?? ''}|${problem}`;
  const known = findings.get(key);
  if (known) {
    known.occurrences += 1;
    return;
  }
  findings.set(key, {
    operation: c.op.id,
    kind: c.kind,
    mutation: c.mutation,
    problem,
    detail: detail.slice(0, 600),
    curl: toCurl(target.baseUrl, c.raw),
    replay:
      `fast-check seed ${c.seed}, path ${c.path}: FUZZ_OP='${c.op.id}' FUZZ_SEED=${baseSeed} FUZZ_PATH=${c.path} NODE_OPTIONS=--experimental-vm-modules ` +
      `npx jest ${target.specFile} -t '${c.kind}'`,
    occurrences: 1,
  });
}

/**
 * Fails with the findings grouped by class (kind, mutation, problem): for each class the operations
 * that showed it and one example spelled out (detail, curl, replay); passes when there are none.
 */
export function expectNoFindings(findings: Finding[]): void {
  if (!findings.length) return;
  const classes = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `[${f.kind}${f.mutation ? `: ${f.mutation}` : ''}] ${f.problem}`;
    classes.set(key, [...(classes.get(key) ?? []), f]);
  }
  const text = [...classes]
    .map(([key, [example, ...others]], i) => {
      const operations = [example, ...others].map((f) => `${f.operation} (${f.occurrences}x)`).join(', ');
      return (
        `${i + 1}. ${key}\n   in: ${operations}\n   ${example.detail}\n   ${example.curl}\n` +
        `   replay: ${example.replay}`
      );
    })
    .join('\n\n');
  throw new Error(
    `${classes.size} classes of fuzz findings in ${findings.length} (operation, class) pairs ` +
      `(seed base ${baseSeed}):\n\n${text}`,
  );
}
