import { DataSource } from 'typeorm';
import {
  cardFootprint,
  changeSettings,
  checkAuthorisation,
  entries,
  expectHistoryChain,
  getHistory,
  getSettings,
  provisionCard,
  settingsBody,
  settingsOf,
  setUpCardTenant,
  STANDARD_CODES,
  startCardApiReplicasWithCardTenant,
} from './support/card-settings';
import { RunningApp, TestStack, TenantFixture } from './support/stack';
import { expectProblem } from './support/problems';

describe('card-api: POST /api/v1/cards/{cardId}/settings/change', () => {
  let stack: TestStack, sut: RunningApp, replica: RunningApp, db: DataSource;
  let acme: TenantFixture, other: TenantFixture;
  beforeAll(async () => {
    ({ stack, sut, replica, db, acme, other } = await startCardApiReplicasWithCardTenant());
    await setUpCardTenant(sut.api, other.token);
  });
  afterAll(() => stack.close());

  it('changes the settings, answers with exactly the settings in force, and the check sees it at once on another replica', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    expect((await checkAuthorisation(replica.api, acme.token, cardId, '01')).body).toMatchObject({
      allowed: true,
      reason: 'ALLOWED',
      settingsVersion: 1,
    });

    const r = await changeSettings(sut.api, acme, cardId, {
      authorisationTypes: entries('30+ 20+ 01- 0C+ 0A- 00+'),
      renewable: false,
      xpaysAllowed: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      authorisationTypes: entries('00+ 0A- 0C+ 01- 20+ 30+'),
      renewable: false,
      xpaysAllowed: true,
    });

    // No waiting: the very next request, on the other instance, reads the committed settings.
    expect((await checkAuthorisation(replica.api, acme.token, cardId, '01')).body).toEqual({
      cardId,
      serviceCode: '01',
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
      settingsVersion: 2,
    });
    expect((await checkAuthorisation(replica.api, acme.token, cardId, '0A')).body.allowed).toBe(false);
    expect((await checkAuthorisation(replica.api, acme.token, cardId, '0C')).body.allowed).toBe(true);
    const settings = await getSettings(replica.api, acme.token, cardId);
    expect(settings.body).toMatchObject({
      cardId,
      usageGroup: 'STANDARD',
      network: 'VISA',
      status: 'ACTIVE',
      version: 2,
      ...r.body,
    });

    await changeSettings(replica.api, acme, cardId, settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect((await checkAuthorisation(sut.api, acme.token, cardId, '01')).body).toMatchObject({
      allowed: true,
      settingsVersion: 3,
    });
  });

  it('records nothing and emits nothing when the request repeats the settings in force', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const before = await cardFootprint(db, cardId);
    const r = await changeSettings(sut.api, acme, cardId, settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect(await cardFootprint(db, cardId)).toEqual(before);
  });

  it('answers 404 for a card of another tenant or an unknown card, and changes nothing', async () => {
    const foreign = await provisionCard(sut.api, other.token);
    const before = await cardFootprint(db, foreign);
    const r = await changeSettings(sut.api, acme, foreign, settingsBody('00- 0A- 0C- 01- 20- 30-'));
    expectProblem(r, 404, 'card_not_found');
    expect((await checkAuthorisation(sut.api, acme.token, foreign, '00')).status).toBe(404);
    expect((await getSettings(sut.api, acme.token, foreign)).status).toBe(404);
    expect((await getHistory(sut.api, acme.token, foreign)).status).toBe(404);
    expect((await changeSettings(sut.api, acme, 'NO-SUCH-CARD', settingsBody('00+'))).status).toBe(404);
    expect(await cardFootprint(db, foreign)).toEqual(before);
  });

  it('requires x-tenant-code matching the token, and cards:write', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const before = await cardFootprint(db, cardId);
    const body = settingsBody('00- 0A- 0C- 01- 20- 30-');
    const noHeader = await sut.api.post(`/api/v1/cards/${cardId}/settings/change`, body, {
      token: acme.token,
    });
    expectProblem(noHeader, 400, 'tenant_header_required');
    const wrongTenant = await changeSettings(sut.api, acme, cardId, body, {
      'x-tenant-code': other.tenant.code,
    });
    expectProblem(wrongTenant, 403, 'tenant_mismatch');
    const reader = await acme.tokenWith(['cards:read']);
    const readOnly = await changeSettings(sut.api, { ...acme, token: reader }, cardId, body);
    expectProblem(readOnly, 403, 'insufficient_scope');
    expect(await cardFootprint(db, cardId)).toEqual(before);
  });

  it('refuses to change a closed card (409) and the check answers CARD_CLOSED; a blocked card can be changed but allows nothing', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const changeStatus = (status: string) =>
      sut.api.post(`/api/v1/cards/${cardId}/status/change`, { status }, { token: acme.token });
    expect((await changeStatus('BLOCKED')).body.status).toBe('BLOCKED');
    expect((await checkAuthorisation(sut.api, acme.token, cardId, '00')).body).toMatchObject({
      allowed: false,
      reason: 'CARD_BLOCKED',
    });
    expect(
      (await changeSettings(sut.api, acme, cardId, settingsBody('00+ 0A+ 0C+ 01- 20+ 30+'))).status,
    ).toBe(200);

    expect((await changeStatus('CLOSED')).status).toBe(200);
    const before = await cardFootprint(db, cardId);
    const r = await changeSettings(sut.api, acme, cardId, settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expectProblem(r, 409, 'card_closed');
    expect(r.body.detail).toContain(cardId);
    expect((await checkAuthorisation(sut.api, acme.token, cardId, '00')).body).toMatchObject({
      allowed: false,
      reason: 'CARD_CLOSED',
    });
    const reopen = await changeStatus('ACTIVE');
    expectProblem(reopen, 409, 'card_closed');
    expect(await cardFootprint(db, cardId)).toEqual(before);
  });

  it('serialises concurrent changes of one card: the end state is one of the requests and the history is a complete chain', async () => {
    const cardId = await provisionCard(sut.api, acme.token);
    const requests = Array.from({ length: 16 }, (_, i) => ({
      authorisationTypes: STANDARD_CODES.map((serviceCode, bit) => ({
        serviceCode,
        allowed: ((i >> bit) & 1) === 1,
      })),
      renewable: i % 2 === 0,
      xpaysAllowed: i % 3 === 0,
    }));
    const answers = await Promise.all(
      requests.map((body, i) => changeSettings((i % 2 ? replica : sut).api, acme, cardId, body)),
    );
    expect(answers.map((a) => a.status)).toEqual(requests.map(() => 200));

    const { view, history } = await expectHistoryChain(
      sut.api,
      db,
      acme.token,
      cardId,
      settingsBody('00+ 0A+ 0C+ 01+ 20+ 30+'),
    );
    expect(requests).toContainEqual(settingsOf(view));
    // The requests differ from each other and from the initial settings, so each one is a change.
    expect(history).toHaveLength(requests.length);
  });

  it('documents the operations in OpenAPI with schemas and examples', async () => {
    const doc = (await sut.api.get('/docs-json')).body;
    const op = doc.paths['/api/v1/cards/{cardId}/settings/change'].post;
    expect(op.tags).toEqual(['Cards']);
    expect(JSON.stringify(op.requestBody)).toContain('ChangeCardSettingsRequest');
    expect(op.responses['200'].content['application/json'].example).toMatchObject({ renewable: true });
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '409', '422']),
    );
    expect(op.parameters.find((p: { name: string }) => p.name === 'x-tenant-code').required).toBe(true);
    expect(doc.components.schemas.ChangeCardSettingsRequest.example).toBeDefined();
    for (const path of [
      '/api/v1/cards',
      '/api/v1/accounts',
      '/api/v1/usage-groups',
      '/api/v1/service-codes',
      '/api/v1/cards/{cardId}/authorisations/check',
      '/api/v1/cards/{cardId}/settings/history',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
  });
});
