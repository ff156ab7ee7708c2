import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The checkout, from the benchmark's sources or from its build in dist-bench/. */
function repositoryRoot(from = __dirname): string {
  return existsSync(join(from, 'nest-cli.json')) ? from : repositoryRoot(dirname(from));
}

/**
 * The data of a profile change, as large as the credentials API's for the benchmark's persons, as
 * a PostgreSQL array of one jsonb. A space after each colon: pgbench would read `:null` as a variable.
 */
const CHANGE_DATA = JSON.stringify([
  JSON.stringify(
    {
      person: {
        email: null,
        phone: null,
        lastName: 'Changed bench-ceiling-0',
        personId: 'bench-ceiling-0',
        firstName: null,
      },
      personId: 'bench-ceiling-0',
      changedFields: ['lastName'],
    },
    null,
    1,
  ).replace(/\n */g, ''),
]).replace(/^\[(.*)\]$/, '{$1}');

/** The headers an attempt sends and its record keeps, as large as fincore's (one v1 signature). */
const SENT_HEADERS = JSON.stringify(
  {
    'content-type': 'application/json',
    'user-agent': 'fincore-webhooks/0.1 (+https://www.standardwebhooks.com)',
    'webhook-id': '9a1e7f60-2d4b-4c1a-8e5f-7b3c2d1e0f99',
    'webhook-timestamp': '1768046400',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
  null,
  1,
).replace(/\n */g, '');

/**
 * A repository's statement as its query snapshot holds it (`<dir>/queries/<file>`, one section per
 * method, kept equal to what the repository sends by the snapshot's spec), with each `$n` replaced
 * by what pgbench sends in its place (`:name` is a pgbench variable, sent as a parameter).
 */
export function snapshotStatement(file: string, method: string, parameters: Record<number, string>): string {
  const sections = readFileSync(join(repositoryRoot(), file), 'utf8').split(/^-- /m);
  const section = sections.find((s) => s.split('\n', 1)[0] === method);
  if (!section) throw new Error(`${file} has no statement ${method}`);
  const sql = section
    .slice(section.indexOf('\n') + 1)
    .trim()
    .replace(/;$/, '');
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const value = parameters[Number(n)];
    if (value === undefined) throw new Error(`${file} ${method}: no value for $${n}`);
    return value;
  });
}

const PERSONS = 'apps/credentials-api/queries/person.repository.sql';
const FAN_OUT = 'libs/notifications/queries/webhook-delivery-fan-out.repository.sql';
const ATTEMPTS = 'libs/notifications/queries/webhook-delivery-attempt.repository.sql';

/** Event `i`'s statements through the credentials API: the person read, then its change with the outbox row. */
function change(i: number): string[] {
  const person = `'bench-ceiling-' || :n${i}`;
  return [
    // each client changes persons of its own, as fincore keeps a subject's events in order
    `\\set n${i} :client_id * :persons_per_client + random(0, :persons_per_client - 1)`,
    `${snapshotStatement(PERSONS, 'findByPersonId', { 1: ':tenant_id', 2: person })}\n\\gset p${i}_`,
    snapshotStatement(PERSONS, 'updateProfileIfUnchanged', {
      ...{ 1: 'NULL', 2: `'Changed ' || :e${i}`, 3: 'NULL', 4: 'NULL', 5: ':now', 6: `:p${i}_id` },
      ...{ 7: 'NULL', 8: `:p${i}_last_name`, 9: 'NULL', 10: 'NULL', 11: 'NULL' },
      ...{ 12: `ARRAY[:e${i}]`, 13: `'{PERSON_UPDATED}'`, 14: 'ARRAY[:tenant_code]', 15: 'ARRAY[:now]' },
      ...{ 16: `ARRAY[:c${i}]`, 17: `'${CHANGE_DATA}'`, 18: `'{person}'`, 19: `ARRAY[${person}]` },
    }) + ';',
  ];
}

/** Event `i`'s fan-out by the notifier, to the tenant's endpoint. */
function fanOut(i: number): string {
  const parameters = { 1: `ARRAY[:e${i}]`, 2: ':now', 3: `'WEBHOOK'`, 4: `'SUBJECT'`, 5: `'{}'` };
  return `${snapshotStatement(FAN_OUT, 'claimEventAndCreateDeliveries', parameters)}\n\\gset f${i}_`;
}

/** The successes of the transaction's webhooks, recorded together as the notifier batches them. */
function successes(numbers: number[]): string {
  const array = (item: (i: number) => string) => `ARRAY[${numbers.map(item).join(', ')}]`;
  return (
    snapshotStatement(ATTEMPTS, 'recordSucceededAttempts', {
      ...{ 1: array((i) => `:f${i}_id`), 2: array((i) => `:f${i}_endpoint_id`) },
      ...{ 3: array(() => ':now'), 4: array(() => ':now'), 5: array(() => '1') },
      ...{ 6: array(() => '200'), 7: array(() => `'ok'`), 8: array(() => `'${SENT_HEADERS}'`) },
    }) + ';'
  );
}

/**
 * One pgbench transaction of `batch` events: their ids and the time (fincore makes them in Node;
 * here one round trip), each event's change through the credentials API, their fan-outs, and
 * their successes in one statement. The API's statements commit as the server is configured,
 * the notifier's without waiting for the WAL flush, as in fincore.
 */
export function ceilingScript(batch: number): string {
  const numbers = Array.from({ length: batch }, (_, k) => k + 1);
  const ids = numbers.map((i) => `gen_random_uuid() AS e${i}, gen_random_uuid()::text AS c${i}`).join(', ');
  return [
    `SELECT ${ids}, clock_timestamp() AS now\n\\gset`,
    ...numbers.flatMap(change),
    'SET synchronous_commit = off;',
    ...numbers.map(fanOut),
    successes(numbers),
    'SET synchronous_commit = DEFAULT;',
  ].join('\n');
}
