import { isCalendarDate, periodsOverlap } from './calendar';

describe('calendar', () => {
  it.each(['2026-02-28', '2024-02-29', '2026-12-31', '2000-02-29', '0001-01-01', '9999-12-31', '2026-04-30'])(
    'accepts the real date %s',
    (v) => expect(isCalendarDate(v)).toBe(true),
  );
  it.each([
    '2026-02-30',
    '2025-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '2026-1-5',
    '20260101',
    '2026-01-0a',
    '2026/01/01',
    '+202-01-01',
    '2026-01-01 ',
    '',
  ])('refuses %s', (v) => expect(isCalendarDate(v)).toBe(false));
  it('detects overlapping inclusive periods, open ends included', () => {
    expect(
      periodsOverlap(
        { validFrom: '2026-01-01', validTo: '2026-06-30' },
        { validFrom: '2026-06-30', validTo: null },
      ),
    ).toBe(true);
    expect(
      periodsOverlap(
        { validFrom: '2026-01-01', validTo: '2026-06-29' },
        { validFrom: '2026-06-30', validTo: null },
      ),
    ).toBe(false);
    expect(
      periodsOverlap(
        { validFrom: '2026-01-01', validTo: null },
        { validFrom: '2025-01-01', validTo: '2025-12-31' },
      ),
    ).toBe(false);
  });
});
