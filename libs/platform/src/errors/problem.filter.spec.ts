import { QueryFailedError } from 'typeorm';
import { loggableError } from './problem.filter';

describe('loggableError', () => {
  it('keeps what helps diagnose a failed statement but never its parameters or driver detail', () => {
    const driverError = Object.assign(
      new Error('duplicate key value violates unique constraint "persons_username"'),
      {
        code: '23505',
        detail: 'Key (username_key)=(demo.user) already exists.',
      },
    );
    const sut = loggableError(
      new QueryFailedError(
        'INSERT INTO credentials.persons (password_hash) VALUES ($1)',
        ['$argon2id$v=19$secret'],
        driverError,
      ),
    );
    const logged = JSON.stringify(sut);
    expect(logged).not.toContain('$argon2id');
    expect(logged).not.toContain('demo.user');
    expect(sut).toMatchObject({
      type: 'QueryFailedError',
      code: '23505',
      query: expect.stringContaining('INSERT INTO credentials.persons'),
    });
    expect(sut.stack).toEqual(expect.any(String));
  });

  it('describes values that are not errors', () => {
    expect(loggableError('boom')).toEqual({ message: 'boom' });
  });
});
