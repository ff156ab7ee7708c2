import { Client } from 'pg';
import { poolOptions } from './data-source';

describe('poolOptions', () => {
  it('bounds every wait on PostgreSQL by default', () => {
    const sut = poolOptions({ DATABASE_URL: 'postgres://db/fincore' });
    expect(sut).toMatchObject({
      max: 10,
      connectionTimeoutMillis: 2000,
      statement_timeout: 5000,
      lock_timeout: 3000,
      idle_in_transaction_session_timeout: 30000,
      keepAlive: true,
    });
    expect(sut.Client).toEqual(expect.any(Function));
    expect(sut.Client).not.toBe(Client);
  });

  it('takes the configured bounds', () => {
    const sut = poolOptions({
      DATABASE_URL: 'postgres://db/fincore',
      DATABASE_POOL_SIZE: 4,
      DATABASE_STATEMENT_TIMEOUT_MS: 1000,
      DATABASE_LOCK_TIMEOUT_MS: 500,
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: 9000,
      DATABASE_ACQUIRE_TIMEOUT_MS: 700,
    });
    expect(sut).toMatchObject({
      max: 4,
      connectionTimeoutMillis: 700,
      statement_timeout: 1000,
      lock_timeout: 500,
      idle_in_transaction_session_timeout: 9000,
    });
  });

  it('leaves statements unbounded, on both sides, when the statement timeout is 0', () => {
    const sut = poolOptions({ DATABASE_URL: 'postgres://db/fincore', DATABASE_STATEMENT_TIMEOUT_MS: 0 });
    expect(sut.statement_timeout).toBe(0);
    expect(sut.Client).toBeUndefined();
  });
});
