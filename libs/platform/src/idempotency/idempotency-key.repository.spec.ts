import { openTestDatabase, TestDatabase } from '@test/support/test-database';
import type { TenantEntity } from '../auth/tenant.entity';
import { keyDigest } from './idempotency-key';
import { ClaimTimes, IdempotencyKeyRepository } from './idempotency-key.repository';

describe('IdempotencyKeyRepository', () => {
  let db: TestDatabase;
  let sut: IdempotencyKeyRepository;
  let tenant: TenantEntity;
  const times: ClaimTimes = { lockSeconds: 60, ttlSeconds: 86_400 };
  /** Claims that are over at once: abandoned (lock) or expired (both). */
  const abandoned: ClaimTimes = { lockSeconds: 0, ttlSeconds: 86_400 };
  const expired: ClaimTimes = { lockSeconds: 0, ttlSeconds: 0 };
  const answer = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"cardId":"C1"}' };

  beforeAll(async () => {
    db = await openTestDatabase();
    sut = new IdempotencyKeyRepository(db.dataSource);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    tenant = await db.createTenant();
  });

  const k = keyDigest;
  const keysOf = (tenantId: string): Promise<Array<{ key_digest: string }>> =>
    db.dataSource.query(`SELECT key_digest FROM platform.idempotency_keys WHERE tenant_id = $1`, [tenantId]);

  describe('claimNew', () => {
    it('claims a key once; the second claim finds it taken', async () => {
      const claim = await sut.claimNew(tenant.id, k('k1'), 'f1', times);
      expect(claim).toEqual({ tenantId: tenant.id, keyDigest: k('k1'), claimId: expect.any(String) });
      expect(await sut.claimNew(tenant.id, k('k1'), 'f1', times)).toBeUndefined();

      const record = await sut.find(tenant.id, k('k1'));
      expect(record).toMatchObject({
        claimId: claim!.claimId,
        fingerprint: 'f1',
        status: 'in_progress',
        answer: null,
      });
      expect(record!.lockedUntil.getTime()).toBeGreaterThan(record!.checkedAt.getTime());
    });

    it('keeps the keys of two tenants apart', async () => {
      const other = await db.createTenant();
      expect(await sut.claimNew(tenant.id, k('shared'), 'f1', times)).toBeDefined();
      expect(await sut.claimNew(other.id, k('shared'), 'f2', times)).toBeDefined();
      expect(await sut.find(other.id, k('shared'))).toMatchObject({ fingerprint: 'f2' });
    });

    it('lets exactly one of many concurrent claims win', async () => {
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => sut.claimNew(tenant.id, k('race'), 'f1', times)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });
  });

  describe('complete', () => {
    it('stores the answer under its claim', async () => {
      const claim = (await sut.claimNew(tenant.id, k('k1'), 'f1', times))!;
      expect(await sut.complete(claim, answer)).toBe(true);
      expect(await sut.find(tenant.id, k('k1'))).toMatchObject({ status: 'completed', answer });
    });

    it('stores nothing for a claim that was taken over', async () => {
      const first = (await sut.claimNew(tenant.id, k('k1'), 'f1', abandoned))!;
      const second = (await sut.takeOver(tenant.id, k('k1'), first.claimId, 'f1', times))!;
      expect(await sut.complete(first, answer)).toBe(false);
      expect(await sut.find(tenant.id, k('k1'))).toMatchObject({
        claimId: second.claimId,
        status: 'in_progress',
      });
    });
  });

  describe('takeOver', () => {
    it('hands an abandoned claim to one of two takers, with a fresh lock', async () => {
      const first = (await sut.claimNew(tenant.id, k('k1'), 'f1', abandoned))!;
      const takers = await Promise.all([
        sut.takeOver(tenant.id, k('k1'), first.claimId, 'f1', times),
        sut.takeOver(tenant.id, k('k1'), first.claimId, 'f1', times),
      ]);
      expect(takers.filter(Boolean)).toHaveLength(1);
      const record = (await sut.find(tenant.id, k('k1')))!;
      expect(record.lockedUntil.getTime()).toBeGreaterThan(record.checkedAt.getTime());
    });

    it('rebinds an expired key to the new request and forgets the old answer', async () => {
      const first = (await sut.claimNew(tenant.id, k('k1'), 'f1', expired))!;
      await sut.complete(first, answer);
      expect(await sut.takeOver(tenant.id, k('k1'), first.claimId, 'f2', times)).toBeDefined();
      expect(await sut.find(tenant.id, k('k1'))).toMatchObject({
        fingerprint: 'f2',
        status: 'in_progress',
        answer: null,
      });
    });
  });

  describe('deleteAnswersAbout', () => {
    const person = (id: string) => ({ type: 'person', id });
    const completed = async (tenantId: string, key: string, subject?: { type: string; id: string }) => {
      const claim = await sut.claimNew(tenantId, k(key), 'f1', times);
      await sut.complete(claim!, answer, subject);
    };

    it("deletes the tenant's answers about the subject, in the caller's transaction, and no other", async () => {
      const other = await db.createTenant();
      await completed(tenant.id, 'about-p1', person('p1'));
      await completed(tenant.id, 'about-p1-again', person('p1'));
      await completed(tenant.id, 'about-p2', person('p2'));
      await completed(tenant.id, 'about-nobody');
      await completed(other.id, 'other-about-p1', person('p1'));

      const deleted = await db.dataSource.transaction((m) =>
        sut.deleteAnswersAbout(m, tenant.id, person('p1')),
      );

      expect(deleted).toBe(2);
      expect((await keysOf(tenant.id)).map((r) => r.key_digest).sort()).toEqual(
        [k('about-p2'), k('about-nobody')].sort(),
      );
      expect(await keysOf(other.id)).toHaveLength(1);
    });

    it('forgets the subject of an answer whose key was taken over', async () => {
      const claim = await sut.claimNew(tenant.id, k('taken'), 'f1', abandoned);
      await sut.complete(claim!, answer, person('p3'));
      await db.dataSource.query(
        `UPDATE platform.idempotency_keys SET status = 'in_progress', response_status = NULL WHERE key_digest = $1`,
        [k('taken')],
      );
      expect(await sut.takeOver(tenant.id, k('taken'), claim!.claimId, 'f2', times)).toBeDefined();

      expect(await db.dataSource.transaction((m) => sut.deleteAnswersAbout(m, tenant.id, person('p3')))).toBe(
        0,
      );
    });
  });

  describe('release', () => {
    it('frees the key for the next claim, and only for its own claim', async () => {
      const first = (await sut.claimNew(tenant.id, k('k1'), 'f1', abandoned))!;
      const second = (await sut.takeOver(tenant.id, k('k1'), first.claimId, 'f1', times))!;
      await sut.release(first);
      expect(await sut.find(tenant.id, k('k1'))).toMatchObject({ claimId: second.claimId });

      await sut.release(second);
      expect(await sut.find(tenant.id, k('k1'))).toBeUndefined();
      expect(await sut.claimNew(tenant.id, k('k1'), 'f1', times)).toBeDefined();
    });
  });

  describe('deleteExpired', () => {
    it('deletes expired keys in batches and keeps the others', async () => {
      for (const key of ['e1', 'e2', 'e3']) await sut.claimNew(tenant.id, k(key), 'f1', expired);
      await sut.claimNew(tenant.id, k('live'), 'f1', times);

      expect(await sut.deleteExpired(2)).toBe(2);
      expect(await sut.deleteExpired(2)).toBeGreaterThanOrEqual(1);
      expect(await keysOf(tenant.id)).toEqual([{ key_digest: k('live') }]);
    });
  });
});
