import { QueryFailedError } from 'typeorm';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from './dependency-errors';
import { loggableError } from './problem.filter';
import { renderProblem } from './render';

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

describe('renderProblem of an unavailable dependency', () => {
  it('answers 503 dependency_unavailable with Retry-After, localised, and not as an unexpected error', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const sut = renderProblem(
      new QueryFailedError('SELECT 1', [], refused),
      { method: 'GET', url: '/api/v1/persons/p-1', headers: { 'accept-language': 'de' } },
      'req-1',
      1024,
    );
    expect(sut).toMatchObject({
      status: 503,
      unexpected: false,
      headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS), 'content-language': 'de' },
      body: {
        code: 'dependency_unavailable',
        status: 503,
        title: 'Vorübergehend nicht verfügbar',
        detail: expect.stringContaining(`${DEPENDENCY_RETRY_AFTER_SECONDS} Sekunden`),
      },
    });
  });
});
