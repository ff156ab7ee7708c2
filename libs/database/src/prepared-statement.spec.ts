import type { DataSource } from 'typeorm';
import { queryPrepared, statementName } from './prepared-statement';

describe('statementName', () => {
  it('names one text alike every time, and two texts apart', () => {
    const sut = statementName;

    expect(sut('SELECT $1::int')).toBe(sut('SELECT $1::int'));
    expect(sut('SELECT $1::int')).not.toBe(sut('SELECT $1::text'));
    expect(sut('SELECT $1::int')).toMatch(/^fincore_[0-9a-f]{20}$/);
  });
});

describe('queryPrepared', () => {
  const poolWith = (query: jest.Mock) => {
    const client = { query, release: jest.fn(), on: jest.fn(), removeListener: jest.fn() };
    const db = { driver: { master: { connect: jest.fn(async () => client) } } } as unknown as DataSource;
    return { db, client };
  };

  it('queries a pooled client by promise, which its guard bounds, named by the text, and releases it', async () => {
    const { db, client } = poolWith(jest.fn(async () => ({ rows: [{ n: 1 }] })));

    expect(await queryPrepared(db, 'SELECT $1::int AS n', [1])).toEqual([{ n: 1 }]);
    expect(client.query).toHaveBeenCalledWith({
      name: statementName('SELECT $1::int AS n'),
      text: 'SELECT $1::int AS n',
      values: [1],
    });
    expect(client.query.mock.calls[0]).toHaveLength(1);
    expect(client.release).toHaveBeenCalledWith();
    // Listened to while checked out: the guard's destroying a connection must not end the process.
    expect(client.on).toHaveBeenCalledWith('error', expect.any(Function));
    expect(client.removeListener).toHaveBeenCalledWith('error', client.on.mock.calls[0][1]);
  });

  it('releases a client whose query failed with the error, so the pool drops it', async () => {
    const failure = Object.assign(new Error('PostgreSQL sent no answer'), { code: 'ETIMEDOUT' });
    const { db, client } = poolWith(jest.fn(async () => Promise.reject(failure)));

    await expect(queryPrepared(db, 'SELECT 1 AS n', [])).rejects.toBe(failure);
    expect(client.release).toHaveBeenCalledWith(failure);
  });
});
