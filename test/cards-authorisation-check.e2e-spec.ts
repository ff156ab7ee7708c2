import {
  ALL_CODES,
  checkAuthorisation,
  provisionCard,
  startCardApiWithCardTenant,
} from './support/card-settings';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

describe('card-api: authorisation check and service-code catalog', () => {
  let stack: TestStack, sut: RunningApp, acme: TenantFixture;
  beforeAll(async () => ({ stack, sut, acme } = await startCardApiWithCardTenant()));
  afterAll(() => stack.close());

  const check = (cardId: string, serviceCode: string) =>
    checkAuthorisation(sut.api, acme.token, cardId, serviceCode);

  it('explains a refused check: network, usage group, unknown code', async () => {
    const mastercard = await provisionCard(sut.api, acme.token, { network: 'MASTERCARD', usageGroup: 'ALL' });
    expect((await check(mastercard, '11')).body).toMatchObject({
      allowed: false,
      reason: 'NOT_SUPPORTED_BY_NETWORK',
    });
    expect((await check(mastercard, '39')).body).toMatchObject({ allowed: true, reason: 'ALLOWED' });
    const visa = await provisionCard(sut.api, acme.token);
    expect((await check(visa, '39')).body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
    const unknown = await check(visa, 'ZZ');
    expectProblem(unknown, 400, 'unknown_service_code');
  });

  it('serves the service-code catalog with localised names', async () => {
    const en = await sut.api.get('/api/v1/service-codes', { token: acme.token });
    expect(en.body.items.map((c: { serviceCode: string }) => c.serviceCode)).toEqual(ALL_CODES);
    expect(en.body.items.find((c: { serviceCode: string }) => c.serviceCode === '01').name).toBe(
      'Cash withdrawal',
    );
    expect(en.body.items.find((c: { serviceCode: string }) => c.serviceCode === '10').networks).toEqual([
      'VISA',
    ]);
    const de = await sut.api.get('/api/v1/service-codes', {
      token: acme.token,
      headers: { 'accept-language': 'de' },
    });
    expect(de.body.items.find((c: { serviceCode: string }) => c.serviceCode === '01').name).toBe(
      'Bargeldabhebung',
    );
  });
});
