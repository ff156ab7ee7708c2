import { Logger } from '@nestjs/common';
import { QueryLogger } from './query-logger';

describe('QueryLogger', () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs a failed statement without its parameters', () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const sut = new QueryLogger();
    (sut.logQueryError as (e: Error, q: string, p: unknown[]) => void)(
      new Error('connection lost'),
      'UPDATE credentials.persons SET password_hash = $1',
      ['$argon2id$secret'],
    );
    expect(error).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(error.mock.calls);
    expect(logged).toContain('connection lost');
    expect(logged).toContain('UPDATE credentials.persons');
    expect(logged).not.toContain('$argon2id');
  });

  it('warns about slow statements, without parameters', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    (new QueryLogger().logQuerySlow as (t: number, q: string, p: unknown[]) => void)(1500, 'SELECT 1', [
      'secret',
    ]);
    expect(JSON.stringify(warn.mock.calls)).toContain('1500 ms');
    expect(JSON.stringify(warn.mock.calls)).not.toContain('secret');
  });
});
