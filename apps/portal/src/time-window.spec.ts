import { instantOfLocalInput as sut, localInputOf, replayWindowOf, windowProblem } from './time-window';

describe('instantOfLocalInput', () => {
  it('is undefined for an empty or incomplete value', () => {
    expect(sut('')).toBeUndefined();
    expect(sut('2026-11-27')).toBeUndefined();
    expect(sut('2026-13-27T10:30')).toBeUndefined();
  });
});

describe('localInputOf', () => {
  it('is empty for no instant or one that is none', () => {
    expect(localInputOf(undefined)).toBe('');
    expect(localInputOf('soon')).toBe('');
  });
});

describe('windowProblem', () => {
  it('refuses a window that does not end after it starts; an open end is fine', () => {
    const nine = '2026-11-27T09:00:00.000Z';
    const ten = '2026-11-27T10:00:00.000Z';
    expect(windowProblem(nine, ten)).toBeUndefined();
    expect(windowProblem(ten, nine)).toBe('windowEndsBeforeStart');
    expect(windowProblem(nine, nine)).toBe('windowEndsBeforeStart');
    expect(windowProblem(nine, undefined)).toBeUndefined();
    expect(windowProblem(undefined, nine)).toBeUndefined();
  });
});

describe('replayWindowOf', () => {
  const local = (hour: number) => new Date(2026, 10, 27, hour).toISOString();
  const now = new Date(2026, 10, 27, 12);

  it('asks for the window picked, or up to now without an end', () => {
    expect(replayWindowOf('2026-11-27T09:00', '2026-11-27T10:00', now)).toEqual({
      body: { since: local(9), until: local(10) },
    });
    expect(replayWindowOf('2026-11-27T09:00', '', now)).toEqual({ body: { since: local(9) } });
  });
  it('needs a start, and an end after it (now, when none is given)', () => {
    expect(replayWindowOf('', '2026-11-27T10:00', now)).toEqual({ problem: 'replayStartRequired' });
    expect(replayWindowOf('2026-11-27T10:00', '2026-11-27T10:00', now)).toEqual({
      problem: 'windowEndsBeforeStart',
    });
    expect(replayWindowOf('2026-11-27T13:00', '', now)).toEqual({ problem: 'windowEndsBeforeStart' });
  });
});
