import { createDataSource } from '@fincore/database';
import { ApiTokenEntity, DEMO_TENANT_CODE, TenantEntity, TokenAdmin } from '@fincore/platform';
import { seedDemo } from '../apps/cli/src/commands';
import { DEMO_SEEDS } from '../apps/cli/src/demo-seeds';
import { CardApiApp } from '../apps/card-api/src/app.definition';
import { CARDS_ENTITIES } from '../apps/card-api/src/cards/cards.module';
import { CardsDemoSeed } from '../apps/card-api/src/cards/demo.seed';
import { CredentialsApiApp } from '../apps/credentials-api/src/app.definition';
import { personsDemoSeed } from '../apps/credentials-api/src/persons/demo.seed';
import { PersonEntity } from '../apps/credentials-api/src/persons/person.entity';
import { RunningApp, TestStack } from './support/stack';

describe('persons demo seed', () => {
  let stack: TestStack;
  afterAll(() => stack.close());

  it('creates the demo person once, with credentials that authenticate', async () => {
    stack = await TestStack.create();
    const ds = createDataSource(stack.config, [TenantEntity, ApiTokenEntity, PersonEntity]);
    await ds.initialize();
    try {
      expect(DEMO_SEEDS).toContain(personsDemoSeed);
      // This context's seed alone (the CLI runs every context's in one transaction the same way).
      const admin = new TokenAdmin(ds);
      const tenant = await admin.createTenant(DEMO_TENANT_CODE, 'Demo Bank');
      const seed = () => ds.transaction((manager) => personsDemoSeed.seed(manager, tenant));
      const first = (await seed()) as { person: { personId: string; username: string; password: string } };
      const second = await seed();
      expect(first.person).toMatchObject({
        personId: 'demo-person-1',
        username: 'demo.user',
        credentialsStatus: 'ACTIVE',
      });
      expect(second).toEqual(first);
      expect(Number((await ds.query(`SELECT count(*) AS n FROM credentials.persons`))[0].n)).toBe(1);

      const { token } = await new TokenAdmin(ds).createToken(DEMO_TENANT_CODE, { name: 'demo-test' });
      const sut = await stack.startApp(CredentialsApiApp);
      const { username, password } = first.person;
      const r = await sut.api.post('/api/v1/credentials/authenticate', { username, password }, { token });
      expect(r.status).toBe(200);
      expect(r.body.personId).toBe('demo-person-1');
    } finally {
      await ds.destroy();
    }
  });
});

describe('cards demo seed', () => {
  let stack: TestStack;
  let sut: RunningApp;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(CardApiApp);
    await stack.db(CARDS_ENTITIES);
  });
  afterAll(() => stack.close());

  it('seeds demo data idempotently: usage groups, accounts and cards of both networks, usable through the API', async () => {
    const demo = await stack.createTenant();
    const db = await stack.db();
    const first = await db.transaction((m) => CardsDemoSeed.seed(m, demo.tenant));
    const second = await db.transaction((m) => CardsDemoSeed.seed(m, demo.tenant));
    expect(second).toEqual(first);
    expect((first.usageGroups as Array<{ code: string }>).map((g) => g.code)).toEqual([
      'ATM_ONLY',
      'STANDARD_DEBIT',
      'VISA_ALL',
    ]);
    expect(new Set((first.cards as Array<{ network: string }>).map((c) => c.network))).toEqual(
      new Set(['VISA', 'MASTERCARD']),
    );

    const settings = await sut.api.get('/api/v1/cards/CARD-DEMO-VISA-1/settings', { token: demo.token });
    expect(settings.body).toMatchObject({ usageGroup: 'STANDARD_DEBIT', network: 'VISA', version: 1 });
    const atm = await sut.api.post(
      '/api/v1/cards/CARD-DEMO-MC-ATM-1/authorisations/check',
      { serviceCode: '0A' },
      { token: demo.token },
    );
    expect(atm.body).toMatchObject({ allowed: false, reason: 'NOT_IN_USAGE_GROUP' });
  });
});

describe('pricing demo seed', () => {
  let stack: TestStack;
  afterAll(() => stack.close());

  it('makes the README example quote work for ACC-DEMO-001 / CARD-DEMO-VISA-1, and is idempotent', async () => {
    stack = await TestStack.create();
    const db = await stack.db(DEMO_SEEDS.flatMap((s) => s.entities));
    await seedDemo(db);
    const again = await seedDemo(db);
    expect(again.pricing).toMatchObject({ priceList: { code: 'DEMO-STANDARD-2026' } });
    const app = await stack.startApp(CardApiApp);
    const { token } = await new TokenAdmin(db).createToken('DEMO', {
      scopes: ['fees:quote'],
      name: 'readme',
    });
    const r = await app.api.post(
      '/api/v1/transactions/calculate-fees',
      {
        postingDate: '2026-03-15',
        transactionTypeCode: 'ATM_WITHDRAWAL',
        transactionAmount: { amount: 100, currencyCode: 'EUR' },
        labels: ['INTERNATIONAL'],
        accountId: 'ACC-DEMO-001',
        cardId: 'CARD-DEMO-VISA-1',
      },
      { token },
    );
    expect(r.status).toBe(200);
    expect(r.body.totalPrice).toEqual({ amount: 7.76, currencyCode: 'EUR' });
    expect(r.body.priceList.code).toBe('DEMO-STANDARD-2026');
  });
});
