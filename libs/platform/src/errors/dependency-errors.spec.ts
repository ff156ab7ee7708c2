import { QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { dependencyOutage as sut } from './dependency-errors';

const pgError = (code: string, message = 'server says no') => Object.assign(new Error(message), { code });

describe('dependencyOutage', () => {
  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['57014', 'canceling statement due to statement timeout'],
    ['55P03', 'canceling statement due to lock timeout'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
    ['08P01', 'protocol violation'],
  ])('recognises PostgreSQL state %s', (code, message) => {
    expect(sut(pgError(code, message))).toEqual({
      dependency: 'postgres',
      reason: expect.stringContaining(code),
    });
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('recognises the pg driver saying "%s"', (message) => {
    expect(sut(new Error(message))).toEqual({ dependency: 'postgres', reason: message });
  });

  it('recognises a transaction whose query runner TypeORM released when its connection failed', () => {
    expect(sut(new QueryRunnerAlreadyReleasedError())?.dependency).toBe('postgres');
  });

  it.each([
    'Connection is closed.',
    'Command timed out',
    "Cluster isn't ready and enableOfflineQueue options is false",
    'None of startup nodes is available',
    'Too many Cluster redirections. Last error: ReplyError: CLUSTERDOWN The cluster is down',
    'CLUSTERDOWN Hash slot not served',
    'TRYAGAIN Multiple keys request during rehashing of slot',
  ])('recognises ioredis or a Redis Cluster saying "%s"', (message) => {
    expect(sut(new Error(message))).toEqual({ dependency: 'redis', reason: message });
  });

  it('recognises ioredis giving up on a command', () => {
    const error = Object.assign(new Error('Reached the max retries per request limit (which is 2).'), {
      name: 'MaxRetriesPerRequestError',
    });
    expect(sut(error)?.dependency).toBe('redis');
  });

  it('recognises ioredis finding no cluster node to refresh the slots from', () => {
    const error = Object.assign(new Error('Failed to refresh slots cache.'), {
      name: 'ClusterAllFailedError',
    });
    expect(sut(error)?.dependency).toBe('redis');
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])('recognises the socket error %s', (code) => {
    expect(sut(pgError(code, `connect ${code} 127.0.0.1:5432`))).toEqual({
      dependency: 'network',
      reason: code,
    });
  });

  it('looks into the driver error TypeORM wraps and into causes', () => {
    const wrapped = new QueryFailedError('SELECT 1', [], new Error('Connection terminated unexpectedly'));
    expect(sut(wrapped)?.dependency).toBe('postgres');
    expect(sut(new Error('outer', { cause: pgError('57P01') }))?.dependency).toBe('postgres');
  });

  it('looks into the attempts of a connection tried on several addresses', () => {
    const refused = new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], 'connect failed');
    expect(sut(refused)?.reason).toBe('ECONNREFUSED');
  });

  it.each([
    ['a unique violation', pgError('23505', 'duplicate key value violates unique constraint')],
    ['a serialization failure', pgError('40001', 'could not serialize access')],
    ['a syntax error', pgError('42601', 'syntax error at or near "SELEC"')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'boom'],
    ['nothing', undefined],
  ])('leaves %s alone', (_what, error) => {
    expect(sut(error)).toBeUndefined();
  });

  it('survives an error that is its own cause', () => {
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(sut(loop)).toBeUndefined();
  });
});
