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
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

describe('card-api: settings change rules', () => {
  let stack: TestStack, sut: RunningApp, db: DataSource, acme: TenantFixture;
  beforeAll(async () => ({ stack, sut, db, acme } = await startCardApiWithCardTenant()));
  afterAll(() => stack.close());

  describe('rejects a request that breaks a rule, with its own code, naming the service codes, and changes nothing', () => {
    let cardId: string;
    let mastercard: string;
    beforeAll(async () => {
      cardId = await provisionCard(sut.api, acme.token);
      mastercard = await provisionCard(sut.api, acme.token, { network: 'MASTERCARD', usageGroup: 'ALL' });
    });

    const cases: Array<[string, () => string, unknown, number, string, string[]]> = [
      [
        'codes the usage group allows are missing',
        () => cardId,
        settingsBody('00+ 0A+ 20+'),
        422,
        'service_codes_missing',
        ['0C', '01', '30'],
      ],
      [
        'the list is empty',
        () => cardId,
        { authorisationTypes: [], renewable: true, xpaysAllowed: false },
        422,
        'service_codes_missing',
        STANDARD_CODES,
      ],
      [
        'a code is not allowed by the usage group',
        () => cardId,
        settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+ 39- 0M+'),
        422,
        'service_code_not_in_usage_group',
        ['39', '0M'],
      ],
      [
        'a VISA-only code is sent for a MASTERCARD card',
        () => mastercard,
        settingsBody('00+ 0A+ 0C+ 0M+ 01+ 09+ 10- 11+ 20+ 21+ 28+ 30+ 39+'),
        422,
        'service_code_not_supported_by_network',
        ['10', '11'],
      ],
      [
        'a code is unknown',
        () => cardId,
        settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+ 77+'),
        400,
        'unknown_service_code',
        ['77'],
      ],
      [
        'a code is given twice',
        () => cardId,
        settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+ 01-'),
        400,
        'duplicate_service_code',
        ['01'],
      ],
    ];

    it.each(cases)('%s', async (_, card, body, status, code, serviceCodes) => {
      const before = await cardFootprint(db, card());
      const r = await changeSettings(sut.api, acme, card(), body);
      expectProblem(r, status, code);
      expect(r.body.serviceCodes).toEqual(serviceCodes);
      for (const sc of serviceCodes) expect(r.body.detail).toContain(sc);
      expect(r.body.errors.length).toBeGreaterThanOrEqual(serviceCodes.length);
      expect(await cardFootprint(db, card())).toEqual(before);
    });

    it('requires renewable and xpaysAllowed (omitting them is a 400, not "unchanged")', async () => {
      const before = await cardFootprint(db, cardId);
      const r = await changeSettings(sut.api, acme, cardId, {
        authorisationTypes: entries('00+ 0A+ 0C+ 01+ 20+ 30+'),
      });
      expectProblem(r, 400, 'validation_failed');
      expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'renewable',
        'xpaysAllowed',
      ]);
      const standard = settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+');
      const notBoolean = await changeSettings(sut.api, acme, cardId, { ...standard, renewable: 'yes' });
      expect(notBoolean.status).toBe(400);
      const unknownField = await changeSettings(sut.api, acme, cardId, { ...standard, renewabel: true });
      expect(unknownField.status).toBe(400);
      expect(await cardFootprint(db, cardId)).toEqual(before);
    });

    it('localises the error title and detail (Accept-Language: de)', async () => {
      const r = await changeSettings(sut.api, acme, cardId, settingsBody('00+'), {
        'accept-language': 'de-DE,de;q=0.9',
      });
      expect(r.status).toBe(422);
      expect(r.headers.get('content-language')).toBe('de');
      expect(r.body.title).toBe('Service-Codes fehlen');
      expect(r.body.detail).toContain('0A, 0C, 01, 20, 30');
      const en = await changeSettings(sut.api, acme, cardId, settingsBody('00+'));
      expect(en.body.title).toBe('Service codes missing');
    });
  });
});
