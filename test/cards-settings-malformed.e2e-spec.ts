import { DataSource } from 'typeorm';
import {
  cardFootprint,
  changeSettings,
  entries,
  provisionCard,
  settingsBody,
  STANDARD_CODES,
  startCardApiWithCardTenant,
} from './support/card-settings';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack, TenantFixture } from './support/stack';

describe('card-api: settings change refuses malformed requests and changes nothing', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture, cardId: string;
  beforeAll(async () => {
    ({ stack, sut, db, acme } = await startCardApiWithCardTenant());
    cardId = await provisionCard(sut.api, acme.token);
  });
  afterAll(() => stack.close());

  /** Settings that differ from those in force: accepted, they would leave a trace. */
  const changed = { ...settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'), renewable: false };
  /** That change with its last entry, in place of 01's, as given. */
  const withEntry = (entry: unknown) => ({
    ...changed,
    authorisationTypes: [...entries('00+ 0A+ 0C+ 20+ 30+'), entry],
  });
  const tooMany = Array.from({ length: 65 }, () => entries('00+')[0]);

  // The last column: a field the problem's errors must name ('' for the body itself).
  it.each([
    [
      'an entry without allowed',
      withEntry({ serviceCode: '01' }),
      'validation_failed',
      'authorisationTypes[5].allowed',
    ],
    [
      'allowed as a string',
      withEntry({ serviceCode: '01', allowed: 'true' }),
      'validation_failed',
      'authorisationTypes[5].allowed',
    ],
    [
      'allowed null',
      withEntry({ serviceCode: '01', allowed: null }),
      'validation_failed',
      'authorisationTypes[5].allowed',
    ],
    [
      'a numeric serviceCode',
      withEntry({ serviceCode: 1, allowed: true }),
      'validation_failed',
      'authorisationTypes[5].serviceCode',
    ],
    [
      'a lowercase serviceCode',
      withEntry({ serviceCode: '0a', allowed: true }),
      'unknown_service_code',
      'authorisationTypes[5].serviceCode',
    ],
    [
      'more entries than allowed',
      { ...changed, authorisationTypes: tooMany },
      'validation_failed',
      'authorisationTypes',
    ],
    [
      'authorisationTypes null',
      { ...changed, authorisationTypes: null },
      'validation_failed',
      'authorisationTypes',
    ],
    [
      'authorisationTypes missing',
      { renewable: false, xpaysAllowed: false },
      'validation_failed',
      'authorisationTypes',
    ],
    ['renewable as a string', { ...changed, renewable: 'no' }, 'validation_failed', 'renewable'],
    ['an unknown field', { ...changed, status: 'CLOSED' }, 'validation_failed', ''],
  ])('answers 400 for %s', async (_what, body, code, field) => {
    const before = await cardFootprint(db, cardId);
    const r = await changeSettings(sut.api, acme, cardId, body);
    expectProblem(r, 400, code);
    expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await cardFootprint(db, cardId)).toEqual(before);
  });

  it.each([
    ['starting with a dash', '-CARD'],
    ['with a space', 'CARD%201'],
    ['longer than 64 characters', 'C'.repeat(65)],
  ])('answers 400 for a cardId %s', async (_what, malformed) => {
    const before = await cardFootprint(db, cardId);
    const r = await changeSettings(
      sut.api,
      acme,
      malformed,
      settingsBody(STANDARD_CODES.map((c) => `${c}-`).join(' ')),
    );
    expectProblem(r, 400, 'validation_failed');
    expect(await cardFootprint(db, cardId)).toEqual(before);
  });

  it('accepts the well-formed change the cases above spoil, and it leaves a trace', async () => {
    const before = await cardFootprint(db, cardId);
    expect((await changeSettings(sut.api, acme, cardId, changed)).status).toBe(200);
    expect(await cardFootprint(db, cardId)).toMatchObject({
      history: before.history + 1,
      events: before.events + 1,
    });
  });
});
