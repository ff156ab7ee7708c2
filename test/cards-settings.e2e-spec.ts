import { CardApiApp } from '../apps/card-api/src/app.definition';
import { RunningApp, TestStack, TenantFixture } from './support/stack';

type Entry = { serviceCode: string; allowed: boolean };
const entries = (spec: string): Entry[] =>
  spec.split(' ').map((t) => ({ serviceCode: t.slice(0, -1), allowed: t.endsWith('+') }));

/** Codes of the STANDARD group below, in catalog order. */
const STANDARD = ['00', '0A', '0C', '01', '20', '30'];
const ALL_CODES = ['00', '0A', '0C', '0M', '01', '09', '10', '11', '20', '21', '28', '30', '39'];

describe('card-api: card settings change, authorisation check, history', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let replica: RunningApp;
  let acme: TenantFixture;
  let other: TenantFixture;
  let cardSeq = 0;

  beforeAll(async () => {
    stack = await TestStack.create();
    // Two app instances on one database stand for two replicas behind a load balancer.
    [sut, replica] = await Promise.all([stack.startApp(CardApiApp), stack.startApp(CardApiApp)]);
    acme = await stack.createTenant();
    other = await stack.createTenant();
    for (const t of [acme, other]) {
      await sut.api.post(
        '/api/v1/accounts',
        { accountId: 'ACC-1', type: 'CURRENT', currencyCode: 'EUR' },
        { token: t.token },
      );
      await sut.api.post(
        '/api/v1/usage-groups',
        { code: 'STANDARD', name: 'Standard debit', allowedServiceCodes: STANDARD },
        { token: t.token },
      );
      await sut.api.post(
        '/api/v1/usage-groups',
        { code: 'ALL', name: 'Everything', allowedServiceCodes: ALL_CODES },
        { token: t.token },
      );
    }
  });
  afterAll(() => stack.close());

  const headersOf = (t: TenantFixture, extra: Record<string, string> = {}) => ({
    'x-tenant-code': t.tenant.code,
    ...extra,
  });

  async function newCard(
    options: { network?: string; usageGroup?: string; tenant?: TenantFixture } = {},
  ): Promise<string> {
    const cardId = `CARD-${++cardSeq}`;
    const r = await sut.api.post(
      '/api/v1/cards',
      {
        cardId,
        accountId: 'ACC-1',
        network: options.network ?? 'VISA',
        cardType: 'DEBIT',
        usageGroup: options.usageGroup ?? 'STANDARD',
      },
      { token: (options.tenant ?? acme).token },
    );
    expect(r.status).toBe(201);
    return cardId;
  }

  const change = (
    cardId: string,
    body: unknown,
    options: { tenant?: TenantFixture; headers?: Record<string, string>; app?: RunningApp } = {},
  ) => {
    const t = options.tenant ?? acme;
    return (options.app ?? sut).api.post(`/api/v1/cards/${cardId}/settings/change`, body, {
      token: t.token,
      headers: headersOf(t, options.headers),
    });
  };
  const check = (cardId: string, serviceCode: string, app: RunningApp = sut) =>
    app.api.post(`/api/v1/cards/${cardId}/authorisations/check`, { serviceCode }, { token: acme.token });

  /** Everything a rejected request could have touched: the card's settings, history and events. */
  async function footprint(cardId: string) {
    const db = await stack.db();
    const [card] = await db.query(
      `SELECT authorisation_types, renewable, xpays_allowed, settings_version FROM cards.cards WHERE card_id = $1`,
      [cardId],
    );
    const [{ n: history }] = await db.query(
      `SELECT count(*)::int AS n FROM cards.card_settings_changes WHERE card_id = $1`,
      [cardId],
    );
    const [{ n: events }] = await db.query(
      `SELECT count(*)::int AS n FROM events.outbox WHERE type = 'CARD_SETTINGS_CHANGED' AND data->>'cardId' = $1`,
      [cardId],
    );
    return { card, history, events };
  }

  const standard = (spec: string) => ({
    authorisationTypes: entries(spec),
    renewable: true,
    xpaysAllowed: false,
  });

  it('changes the settings, answers with exactly the settings in force, and the check sees it at once on another replica', async () => {
    const cardId = await newCard();
    expect((await check(cardId, '01', replica)).body).toMatchObject({
      allowed: true,
      reason: 'ALLOWED',
      settingsVersion: 1,
    });

    const r = await change(cardId, {
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
    expect((await check(cardId, '01', replica)).body).toEqual({
      cardId,
      serviceCode: '01',
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
      settingsVersion: 2,
    });
    expect((await check(cardId, '0A', replica)).body.allowed).toBe(false);
    expect((await check(cardId, '0C', replica)).body.allowed).toBe(true);
    const settings = await replica.api.get(`/api/v1/cards/${cardId}/settings`, { token: acme.token });
    expect(settings.body).toMatchObject({
      cardId,
      usageGroup: 'STANDARD',
      network: 'VISA',
      status: 'ACTIVE',
      version: 2,
      ...r.body,
    });

    await change(cardId, standard('00+ 0A+ 0C+ 01+ 20+ 30+'), { app: replica });
    expect((await check(cardId, '01')).body).toMatchObject({ allowed: true, settingsVersion: 3 });
  });

  it('records the change in the history and emits CARD_SETTINGS_CHANGED in the outbox', async () => {
    const cardId = await newCard();
    const r = await change(cardId, standard('00+ 0A+ 0C+ 01- 20+ 30+'), {
      headers: { 'x-request-id': `req-${cardId}` },
    });
    expect(r.status).toBe(200);

    const history = await sut.api.get(`/api/v1/cards/${cardId}/settings/history`, { token: acme.token });
    expect(history.status).toBe(200);
    expect(history.body.items).toHaveLength(1);
    expect(history.body.items[0]).toMatchObject({
      version: 2,
      changedFields: ['authorisationTypes.01'],
      cause: 'SETTINGS_CHANGE',
      previous: standard('00+ 0A+ 0C+ 01+ 20+ 30+'),
      current: standard('00+ 0A+ 0C+ 01- 20+ 30+'),
      tokenId: acme.tokenEntity.id,
      requestId: `req-${cardId}`,
    });
    expect(history.body.nextBeforeVersion).toBeNull();

    const db = await stack.db();
    const events = await db.query(
      `SELECT tenant_code, correlation_id, data FROM events.outbox WHERE type = 'CARD_SETTINGS_CHANGED' AND data->>'cardId' = $1`,
      [cardId],
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ tenant_code: acme.tenant.code, correlation_id: `req-${cardId}` });
    expect(events[0].data).toEqual({
      cardId,
      changedFields: ['authorisationTypes.01'],
      cause: 'SETTINGS_CHANGE',
      previous: standard('00+ 0A+ 0C+ 01+ 20+ 30+'),
      current: standard('00+ 0A+ 0C+ 01- 20+ 30+'),
    });
  });

  it('records a usage-group change in the history and events of every card whose settings it changes', async () => {
    const group = `H${cardSeq}`;
    const putGroup = (name: string, codes: string[], requestId: string) =>
      sut.api.put(
        `/api/v1/usage-groups/${group}`,
        { name, allowedServiceCodes: codes },
        { token: acme.token, headers: { 'x-request-id': requestId } },
      );
    await sut.api.post(
      '/api/v1/usage-groups',
      { code: group, name: 'ATM', allowedServiceCodes: ['01', '10', '30'] },
      { token: acme.token },
    );
    const [visa, mastercard, outsider] = [
      await newCard({ usageGroup: group }),
      await newCard({ usageGroup: group, network: 'MASTERCARD' }),
      await newCard(),
    ];
    const untouched = await footprint(outsider);
    const historyOf = async (cardId: string) =>
      (await sut.api.get(`/api/v1/cards/${cardId}/settings/history`, { token: acme.token })).body.items;
    const eventsOf = async (cardId: string) =>
      (await stack.db()).query(
        `SELECT correlation_id, data FROM events.outbox
          WHERE type = 'CARD_SETTINGS_CHANGED' AND data->>'cardId' = $1 ORDER BY occurred_at, id`,
        [cardId],
      );

    // A new name alone changes no card's settings.
    expect((await putGroup('Cash', ['01', '10', '30'], `rename-${group}`)).status).toBe(200);
    expect(await historyOf(visa)).toEqual([]);
    expect(await eventsOf(visa)).toEqual([]);

    // Drop 01 and 10, add 39. 10 is VISA only, so the MASTERCARD card never carried it.
    expect((await putGroup('Cash', ['30', '39'], `narrow-${group}`)).status).toBe(200);
    const settings = (spec: string) => ({
      authorisationTypes: entries(spec),
      renewable: true,
      xpaysAllowed: false,
    });
    const [visaEntry] = await historyOf(visa);
    expect(visaEntry).toMatchObject({
      version: 2,
      cause: 'USAGE_GROUP_CHANGE',
      changedFields: ['authorisationTypes.01', 'authorisationTypes.10', 'authorisationTypes.39'],
      previous: settings('01+ 10+ 30+'),
      current: settings('30+ 39-'),
      tokenId: acme.tokenEntity.id,
      requestId: `narrow-${group}`,
    });
    expect((await historyOf(mastercard))[0]).toMatchObject({
      version: 2,
      cause: 'USAGE_GROUP_CHANGE',
      changedFields: ['authorisationTypes.01', 'authorisationTypes.39'],
      previous: settings('01+ 30+'),
      current: settings('30+ 39-'),
    });
    expect(await eventsOf(visa)).toEqual([
      {
        correlation_id: `narrow-${group}`,
        data: {
          cardId: visa,
          cause: 'USAGE_GROUP_CHANGE',
          changedFields: visaEntry.changedFields,
          previous: visaEntry.previous,
          current: visaEntry.current,
        },
      },
    ]);
    expect((await check(visa, '01')).body).toMatchObject({
      reason: 'NOT_IN_USAGE_GROUP',
      settingsVersion: 2,
    });
    expect(await footprint(outsider)).toEqual(untouched);

    // The chain goes on unbroken through the card's own next change.
    expect((await change(visa, settings('30- 39+'))).status).toBe(200);
    const chain = await historyOf(visa);
    expect(chain.map((h: { version: number; cause: string }) => [h.version, h.cause])).toEqual([
      [3, 'SETTINGS_CHANGE'],
      [2, 'USAGE_GROUP_CHANGE'],
    ]);
    expect(chain[0].previous).toEqual(chain[1].current);
  });

  it('records nothing and emits nothing when the request repeats the settings in force', async () => {
    const cardId = await newCard();
    const before = await footprint(cardId);
    const r = await change(cardId, standard('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(standard('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect(await footprint(cardId)).toEqual(before);
  });

  describe('rejects a request that breaks a rule, with its own code, naming the service codes, and changes nothing', () => {
    let cardId: string;
    let mastercard: string;
    beforeAll(async () => {
      cardId = await newCard();
      mastercard = await newCard({ network: 'MASTERCARD', usageGroup: 'ALL' });
    });

    const cases: Array<[string, () => string, unknown, number, string, string[]]> = [
      [
        'codes the usage group allows are missing',
        () => cardId,
        standard('00+ 0A+ 20+'),
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
        STANDARD,
      ],
      [
        'a code is not allowed by the usage group',
        () => cardId,
        standard('00+ 0A+ 0C+ 01+ 20+ 30+ 39- 0M+'),
        422,
        'service_code_not_in_usage_group',
        ['39', '0M'],
      ],
      [
        'a VISA-only code is sent for a MASTERCARD card',
        () => mastercard,
        standard('00+ 0A+ 0C+ 0M+ 01+ 09+ 10- 11+ 20+ 21+ 28+ 30+ 39+'),
        422,
        'service_code_not_supported_by_network',
        ['10', '11'],
      ],
      [
        'a code is unknown',
        () => cardId,
        standard('00+ 0A+ 0C+ 01+ 20+ 30+ 77+'),
        400,
        'unknown_service_code',
        ['77'],
      ],
      [
        'a code is given twice',
        () => cardId,
        standard('00+ 0A+ 0C+ 01+ 20+ 30+ 01-'),
        400,
        'duplicate_service_code',
        ['01'],
      ],
    ];

    it.each(cases)('%s', async (_, card, body, status, code, serviceCodes) => {
      const before = await footprint(card());
      const r = await change(card(), body);
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.body.code).toBe(code);
      expect(r.body.serviceCodes).toEqual(serviceCodes);
      for (const sc of serviceCodes) expect(r.body.detail).toContain(sc);
      expect(r.body.errors.length).toBeGreaterThanOrEqual(serviceCodes.length);
      expect(await footprint(card())).toEqual(before);
    });

    it('requires renewable and xpaysAllowed (omitting them is a 400, not "unchanged")', async () => {
      const before = await footprint(cardId);
      const r = await change(cardId, { authorisationTypes: entries('00+ 0A+ 0C+ 01+ 20+ 30+') });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('validation_failed');
      expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        'renewable',
        'xpaysAllowed',
      ]);
      const notBoolean = await change(cardId, { ...standard('00+ 0A+ 0C+ 01+ 20+ 30+'), renewable: 'yes' });
      expect(notBoolean.status).toBe(400);
      const unknownField = await change(cardId, { ...standard('00+ 0A+ 0C+ 01+ 20+ 30+'), renewabel: true });
      expect(unknownField.status).toBe(400);
      expect(await footprint(cardId)).toEqual(before);
    });

    it('localises the error title and detail (Accept-Language: de)', async () => {
      const r = await change(cardId, standard('00+'), { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
      expect(r.status).toBe(422);
      expect(r.headers.get('content-language')).toBe('de');
      expect(r.body.title).toBe('Service-Codes fehlen');
      expect(r.body.detail).toContain('0A, 0C, 01, 20, 30');
      const en = await change(cardId, standard('00+'));
      expect(en.body.title).toBe('Service codes missing');
    });
  });

  it('answers 404 for a card of another tenant or an unknown card, and changes nothing', async () => {
    const foreign = await newCard({ tenant: other });
    const before = await footprint(foreign);
    const r = await change(foreign, standard('00- 0A- 0C- 01- 20- 30-'));
    expect([r.status, r.body.code]).toEqual([404, 'card_not_found']);
    expect((await check(foreign, '00')).status).toBe(404);
    expect((await sut.api.get(`/api/v1/cards/${foreign}/settings`, { token: acme.token })).status).toBe(404);
    expect(
      (await sut.api.get(`/api/v1/cards/${foreign}/settings/history`, { token: acme.token })).status,
    ).toBe(404);
    expect((await change('NO-SUCH-CARD', standard('00+'))).status).toBe(404);
    expect(await footprint(foreign)).toEqual(before);
  });

  it('requires x-tenant-code matching the token, and cards:write', async () => {
    const cardId = await newCard();
    const before = await footprint(cardId);
    const body = standard('00- 0A- 0C- 01- 20- 30-');
    const noHeader = await sut.api.post(`/api/v1/cards/${cardId}/settings/change`, body, {
      token: acme.token,
    });
    expect([noHeader.status, noHeader.body.code]).toEqual([400, 'tenant_header_required']);
    const wrongTenant = await change(cardId, body, { headers: { 'x-tenant-code': other.tenant.code } });
    expect([wrongTenant.status, wrongTenant.body.code]).toEqual([403, 'tenant_mismatch']);
    const reader = await acme.tokenWith(['cards:read']);
    const readOnly = await sut.api.post(`/api/v1/cards/${cardId}/settings/change`, body, {
      token: reader,
      headers: headersOf(acme),
    });
    expect([readOnly.status, readOnly.body.code]).toEqual([403, 'insufficient_scope']);
    expect(await footprint(cardId)).toEqual(before);
  });

  it('refuses to change a closed card (409) and the check answers CARD_CLOSED; a blocked card can be changed but allows nothing', async () => {
    const cardId = await newCard();
    expect(
      (
        await sut.api.post(
          `/api/v1/cards/${cardId}/status/change`,
          { status: 'BLOCKED' },
          { token: acme.token },
        )
      ).body.status,
    ).toBe('BLOCKED');
    expect((await check(cardId, '00')).body).toMatchObject({ allowed: false, reason: 'CARD_BLOCKED' });
    expect((await change(cardId, standard('00+ 0A+ 0C+ 01- 20+ 30+'))).status).toBe(200);

    expect(
      (
        await sut.api.post(
          `/api/v1/cards/${cardId}/status/change`,
          { status: 'CLOSED' },
          { token: acme.token },
        )
      ).status,
    ).toBe(200);
    const before = await footprint(cardId);
    const r = await change(cardId, standard('00+ 0A+ 0C+ 01+ 20+ 30+'));
    expect([r.status, r.body.code]).toEqual([409, 'card_closed']);
    expect(r.body.detail).toContain(cardId);
    expect((await check(cardId, '00')).body).toMatchObject({ allowed: false, reason: 'CARD_CLOSED' });
    const reopen = await sut.api.post(
      `/api/v1/cards/${cardId}/status/change`,
      { status: 'ACTIVE' },
      { token: acme.token },
    );
    expect([reopen.status, reopen.body.code]).toEqual([409, 'card_closed']);
    expect(await footprint(cardId)).toEqual(before);
  });

  it('explains a refused check: network, usage group, unknown code', async () => {
    const mastercard = await newCard({ network: 'MASTERCARD', usageGroup: 'ALL' });
    expect((await check(mastercard, '11')).body).toMatchObject({
      allowed: false,
      reason: 'NOT_SUPPORTED_BY_NETWORK',
    });
    expect((await check(mastercard, '39')).body).toMatchObject({ allowed: true, reason: 'ALLOWED' });
    const visa = await newCard();
    expect((await check(visa, '39')).body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
    const unknown = await check(visa, 'ZZ');
    expect([unknown.status, unknown.body.code]).toEqual([400, 'unknown_service_code']);
  });

  it('serialises concurrent changes of one card: the end state is one of the requests and the history is a complete chain', async () => {
    const cardId = await newCard();
    const requests = Array.from({ length: 16 }, (_, i) => ({
      authorisationTypes: STANDARD.map((serviceCode, bit) => ({
        serviceCode,
        allowed: ((i >> bit) & 1) === 1,
      })),
      renewable: i % 2 === 0,
      xpaysAllowed: i % 3 === 0,
    }));
    const answers = await Promise.all(
      requests.map((body, i) => change(cardId, body, { app: i % 2 ? replica : sut })),
    );
    expect(answers.map((a) => a.status)).toEqual(requests.map(() => 200));

    const final = await sut.api.get(`/api/v1/cards/${cardId}/settings`, { token: acme.token });
    const finalSettings = {
      authorisationTypes: final.body.authorisationTypes,
      renewable: final.body.renewable,
      xpaysAllowed: final.body.xpaysAllowed,
    };
    expect(requests).toContainEqual(finalSettings);

    const history = (
      await sut.api.get(`/api/v1/cards/${cardId}/settings/history?limit=200`, { token: acme.token })
    ).body.items.reverse();
    // The requests differ from each other and from the initial settings, so each one is a change.
    expect(history).toHaveLength(requests.length);
    expect(history.map((h: { version: number }) => h.version)).toEqual(
      history.map((_: unknown, i: number) => i + 2),
    );
    for (let i = 1; i < history.length; i++) expect(history[i].previous).toEqual(history[i - 1].current);
    expect(history[history.length - 1].current).toEqual(finalSettings);
    expect(final.body.version).toBe(history.length + 1);
    expect((await footprint(cardId)).events).toBe(history.length);
  });

  it('pages the history newest first', async () => {
    const cardId = await newCard();
    for (const spec of ['00-', '00+', '00-']) await change(cardId, standard(`${spec} 0A+ 0C+ 01+ 20+ 30+`));
    const first = await sut.api.get(`/api/v1/cards/${cardId}/settings/history?limit=2`, {
      token: acme.token,
    });
    expect(first.body.items.map((h: { version: number }) => h.version)).toEqual([4, 3]);
    expect(first.body.nextBeforeVersion).toBe(3);
    const second = await sut.api.get(`/api/v1/cards/${cardId}/settings/history?limit=2&beforeVersion=3`, {
      token: acme.token,
    });
    expect(second.body.items.map((h: { version: number }) => h.version)).toEqual([2]);
    expect(second.body.nextBeforeVersion).toBeNull();
    expect(
      (await sut.api.get(`/api/v1/cards/${cardId}/settings/history?limit=0`, { token: acme.token })).status,
    ).toBe(400);
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

  it('a code added to the usage group is not allowed on its cards until a change says so, and then must be listed', async () => {
    const group = `G${cardSeq}`;
    await sut.api.post(
      '/api/v1/usage-groups',
      { code: group, name: 'ATM', allowedServiceCodes: ['01', '30'] },
      { token: acme.token },
    );
    const cardId = await newCard({ usageGroup: group });
    const widened = await sut.api.put(
      `/api/v1/usage-groups/${group}`,
      { name: 'ATM', allowedServiceCodes: ['01', '30', '39'] },
      { token: acme.token },
    );
    expect(widened.status).toBe(200);
    expect((await check(cardId, '39')).body).toMatchObject({
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
    });
    const missing = await change(cardId, standard('01+ 30+'));
    expect([missing.status, missing.body.serviceCodes]).toEqual([422, ['39']]);
    expect((await change(cardId, standard('01+ 30+ 39+'))).status).toBe(200);
    expect((await check(cardId, '39')).body.allowed).toBe(true);
  });

  it('a code removed from the usage group and added back is not allowed again until a change says so', async () => {
    const group = `R${cardSeq}`;
    const putGroup = (codes: string[]) =>
      sut.api.put(
        `/api/v1/usage-groups/${group}`,
        { name: 'ATM', allowedServiceCodes: codes },
        { token: acme.token },
      );
    await sut.api.post(
      '/api/v1/usage-groups',
      { code: group, name: 'ATM', allowedServiceCodes: ['01', '30'] },
      { token: acme.token },
    );
    const cardId = await newCard({ usageGroup: group });
    expect((await check(cardId, '01')).body).toMatchObject({ allowed: true, reason: 'ALLOWED' });
    expect((await putGroup(['30'])).status).toBe(200);
    expect((await check(cardId, '01')).body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
    expect((await putGroup(['01', '30'])).status).toBe(200);
    expect((await check(cardId, '01')).body).toMatchObject({
      allowed: false,
      reason: 'DISABLED_IN_CARD_SETTINGS',
    });
    expect(
      (await sut.api.get(`/api/v1/cards/${cardId}/settings`, { token: acme.token })).body.authorisationTypes,
    ).toEqual(entries('01- 30+'));
  });

  it('serialises usage-group changes with settings changes of its cards (no deadlock, no error)', async () => {
    const group = `P${cardSeq}`;
    await sut.api.post(
      '/api/v1/usage-groups',
      { code: group, name: 'P', allowedServiceCodes: ['01', '30'] },
      { token: acme.token },
    );
    const cards = [await newCard({ usageGroup: group }), await newCard({ usageGroup: group })];
    // Group changes alternately drop 30 (stripping its flag from the cards) and add it back, while
    // settings changes of both cards keep setting it.
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 3 === 0
          ? (i % 2 ? replica : sut).api.put(
              `/api/v1/usage-groups/${group}`,
              { name: 'P', allowedServiceCodes: i % 2 ? ['01', '30'] : ['01'] },
              { token: acme.token },
            )
          : change(cards[i % 2], standard(`01${i % 4 ? '+' : '-'} 30+`), { app: i % 2 ? replica : sut }),
      ),
    );
    // A settings change may meet the group without 30 (422), never a 500.
    expect(answers.map((a) => (a.status === 200 ? 200 : `${a.status} ${a.body.code}`))).toEqual(
      answers.map((a) => (a.status === 200 ? 200 : '422 service_code_not_in_usage_group')),
    );
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
