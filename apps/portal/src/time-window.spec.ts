import { instantOfLocalInput as sut, localInputOf, windowProblem } from './time-window';

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
