import { atmAbroad, FeeWorld, QuoteFees, startCardApiWithFeeWorld } from './support/builders/fee-world';
import { expectProblem } from './support/problems';
import { TestStack } from './support/stack';

describe('fee quotation (POST /api/v1/transactions/calculate-fees): malformed requests', () => {
  let stack: TestStack, world: FeeWorld, quote: QuoteFees;
  beforeAll(async () => ({ stack, world, quote } = await startCardApiWithFeeWorld()));
  afterAll(() => stack.close());

  /** The request without the field at the dotted path. */
  const without = (path: string) => {
    const body: Record<string, any> = structuredClone(atmAbroad(world));
    const keys = path.split('.');
    const last = keys.pop()!;
    delete keys.reduce((o, k) => o[k], body)[last];
    return body;
  };

  /** Answers 400 validation_failed naming the field, with a message matching. */
  const expectInvalid = async (body: Record<string, unknown>, field: string, message: RegExp) => {
    const r = await quote(body);
    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors).toContainEqual({ field, message: expect.stringMatching(message) });
  };

  it('quotes the well-formed request the cases below spoil', async () => {
    expect((await quote(atmAbroad(world))).status).toBe(200);
  });

  it.each([
    'postingDate',
    'transactionTypeCode',
    'transactionAmount',
    'transactionAmount.amount',
    'transactionAmount.currencyCode',
    'accountId',
  ])('answers 400 without %s, naming that field alone', async (field) => {
    const r = await quote(without(field));
    expectProblem(r, 400, 'validation_failed');
    expect(r.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
  });

  it.each([
    [
      'a lowercase currency',
      { transactionAmount: { amount: 100, currencyCode: 'eur' } },
      'transactionAmount.currencyCode',
      /ISO 4217/,
    ],
    [
      'an amount above the maximum',
      { transactionAmount: { amount: 1e12, currencyCode: 'EUR' } },
      'transactionAmount.amount',
      /at most 999999999999/,
    ],
    ['labels as a string', { labels: 'INTERNATIONAL' }, 'labels', /array/],
    ['labels null', { labels: null }, 'labels', /array/],
    ['more than 50 labels', { labels: Array.from({ length: 51 }, (_, i) => `L${i}`) }, 'labels', /50/],
  ])('answers 400 for %s', async (_what, change, field, message) => {
    await expectInvalid({ ...atmAbroad(world), ...change }, field, message);
  });

  it('quotes the largest amount allowed', async () => {
    const r = await quote({
      ...atmAbroad(world),
      transactionAmount: { amount: 999_999_999_999, currencyCode: 'EUR' },
    });
    expect(r.status).toBe(200);
    expect(r.body.transactionAmount.amount).toBe(999_999_999_999);
  });
});
