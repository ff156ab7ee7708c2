import { describeRedisNodes, parseRedisClusterNodes as sut } from './cluster-nodes';

describe('parseRedisClusterNodes', () => {
  it('reads host:port pairs, spaces around the commas allowed', () => {
    expect(sut('10.0.0.1:7000, redis-2.internal:7001 ,[::1]:7002')).toEqual([
      { host: '10.0.0.1', port: 7000 },
      { host: 'redis-2.internal', port: 7001 },
      { host: '::1', port: 7002 },
    ]);
  });

  it.each([
    '',
    'redis:7000,',
    'redis',
    'redis:',
    ':7000',
    'redis:0',
    'redis:65536',
    'redis://a:7000',
    'a:7000:1',
  ])('refuses "%s", naming the entry', (value) => {
    expect(() => sut(value)).toThrow(/is not host:port/);
  });

  it('gives the nodes back as they are written, IPv6 in brackets', () => {
    expect(describeRedisNodes(sut('a:7000,[::1]:7001'))).toBe('a:7000,[::1]:7001');
  });
});
