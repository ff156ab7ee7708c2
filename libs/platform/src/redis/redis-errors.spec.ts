import { connectionErrorLog } from './redis-errors';

describe('connectionErrorLog', () => {
  it('reports the first error at once, then one per interval with the number left out', () => {
    const lines: string[] = [];
    let clock = 0;
    const sut = connectionErrorLog(
      'queue',
      (line) => lines.push(line),
      1000,
      () => clock,
    );
    for (clock = 0; clock < 2500; clock += 100) sut(new Error('connect ECONNREFUSED'));
    expect(lines).toEqual([
      'queue: connect ECONNREFUSED',
      'queue: connect ECONNREFUSED (and 9 more errors since the last report)',
      'queue: connect ECONNREFUSED (and 9 more errors since the last report)',
    ]);
  });

  it('reports again at once after a quiet interval', () => {
    const lines: string[] = [];
    let clock = 0;
    const sut = connectionErrorLog(
      'redis',
      (line) => lines.push(line),
      1000,
      () => clock,
    );
    sut(new Error('a'));
    clock = 5000;
    sut(new Error('b'));
    expect(lines).toEqual(['redis: a', 'redis: b']);
  });
});
