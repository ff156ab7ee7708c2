import type { Client, QueryResult } from 'pg';
import { ADMIN_DATABASE_URL } from '@test/support/run';
import { clientGivingUpAfter } from './unresponsive-server-guard';

/** A server that stops answering, played by a statement that outlives the guard's bound. */
describe('clientGivingUpAfter (PostgreSQL)', () => {
  let sut: Client;
  beforeEach(async () => {
    const GuardedClient = clientGivingUpAfter(200);
    sut = new GuardedClient({ connectionString: ADMIN_DATABASE_URL });
    sut.on('error', () => undefined);
    await sut.connect();
  });
  afterEach(() => sut.end().catch(() => undefined));

  it('gives up on a promise query the server does not answer', async () => {
    await expect(sut.query('SELECT pg_sleep(5)')).rejects.toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('gives up on a callback query, as pool.query sends them', async () => {
    const error = await new Promise<Error | undefined>((resolve) =>
      sut.query('SELECT pg_sleep(5)', [], (e: Error | undefined) => resolve(e)),
    );
    expect(error).toMatchObject({ code: 'ETIMEDOUT' });
  });

  it('leaves answered queries alone, by promise and by callback', async () => {
    expect((await sut.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    const rows = await new Promise<unknown[]>((resolve, reject) =>
      sut.query('SELECT 2 AS n', [], (e: Error | undefined, r: QueryResult) =>
        e ? reject(e) : resolve(r.rows),
      ),
    );
    expect(rows).toEqual([{ n: 2 }]);
  });
});
