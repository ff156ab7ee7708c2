import { Logger } from '@nestjs/common';
import { newDouble } from '@test/support/doubles';
import { IdempotencyKeyRecord, keyDigest, openAnswerBody, sealAnswerBody } from './idempotency-key';
import type { IdempotencyClaim, IdempotencyKeyRepository } from './idempotency-key.repository';
import { HeldIdempotencyKey, IdempotencyKeys } from './idempotency-keys.service';

describe('IdempotencyKeys', () => {
  let keys: jest.Mocked<IdempotencyKeyRepository>;
  let sut: IdempotencyKeys;
  const now = new Date('2026-11-23T10:00:00Z');
  const claim: IdempotencyClaim = { tenantId: 'ten-1', keyDigest: keyDigest('k1'), claimId: 'claim-2' };
  const held: HeldIdempotencyKey = { key: 'k1', claim };
  const existing = (overrides: Partial<IdempotencyKeyRecord> = {}): IdempotencyKeyRecord => ({
    claimId: 'claim-1',
    fingerprint: 'f1',
    status: 'in_progress',
    lockedUntil: new Date(now.getTime() + 30_000),
    expiresAt: new Date(now.getTime() + 86_000_000),
    answer: null,
    checkedAt: now,
    ...overrides,
  });

  beforeEach(() => {
    keys = newDouble<IdempotencyKeyRepository>();
    sut = new IdempotencyKeys(keys);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation();
    jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  describe('claim', () => {
    it('claims a new key with one statement', async () => {
      keys.claimNew.mockResolvedValue(claim);
      expect(await sut.claim('ten-1', 'k1', 'f1')).toEqual({ kind: 'claimed', held });
      expect(keys.find).not.toHaveBeenCalled();
    });

    it('takes over an abandoned claim from the claim it saw', async () => {
      keys.claimNew.mockResolvedValue(undefined);
      keys.find.mockResolvedValue(existing({ lockedUntil: now }));
      keys.takeOver.mockResolvedValue(claim);
      expect(await sut.claim('ten-1', 'k1', 'f1')).toEqual({ kind: 'claimed', held });
      expect(keys.takeOver).toHaveBeenCalledWith(
        'ten-1',
        keyDigest('k1'),
        'claim-1',
        'f1',
        expect.any(Object),
      );
    });

    it('looks again when the key was released between the claim and the read', async () => {
      keys.claimNew.mockResolvedValueOnce(undefined).mockResolvedValueOnce(claim);
      keys.find.mockResolvedValue(undefined);
      expect(await sut.claim('ten-1', 'k1', 'f1')).toEqual({ kind: 'claimed', held });
    });

    it('replays the stored answer, opened with the key', async () => {
      const stored = { status: 201, headers: {}, body: sealAnswerBody('k1', '{"id":1}') };
      keys.claimNew.mockResolvedValue(undefined);
      keys.find.mockResolvedValue(existing({ status: 'completed', answer: stored }));
      expect(await sut.claim('ten-1', 'k1', 'f1')).toEqual({
        kind: 'replay',
        answer: { status: 201, headers: {}, body: '{"id":1}' },
      });
    });

    it('answers with what the key holds otherwise', async () => {
      keys.claimNew.mockResolvedValue(undefined);
      keys.find.mockResolvedValue(existing());
      expect(await sut.claim('ten-1', 'k1', 'f1')).toEqual({ kind: 'in_flight' });
      expect(await sut.claim('ten-1', 'k1', 'f2')).toEqual({ kind: 'mismatch' });
      expect(keys.takeOver).not.toHaveBeenCalled();
    });
  });

  describe('settle', () => {
    it('keeps a final answer under the claim', async () => {
      keys.complete.mockResolvedValue(true);
      await sut.settle(held, {
        status: 422,
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      const [stored, answer] = keys.complete.mock.calls[0];
      expect(stored).toBe(claim);
      expect(answer).toMatchObject({ status: 422, headers: { 'content-type': 'application/json' } });
      expect(openAnswerBody('k1', answer.body!)).toBe('{"a":1}');
      expect(keys.release).not.toHaveBeenCalled();
    });

    it('keeps the subject a successful answer names, when its route says where', async () => {
      keys.complete.mockResolvedValue(true);
      const about = { type: 'person', field: 'personId' };
      await sut.settle({ ...held, about }, { status: 201, headers: {}, body: '{"personId":"p-1"}' });
      await sut.settle({ ...held, about }, { status: 409, headers: {}, body: '{"personId":"p-1"}' });
      expect(keys.complete.mock.calls[0][2]).toEqual({ type: 'person', id: 'p-1' });
      expect(keys.complete.mock.calls[1][2]).toBeUndefined();
    });

    it('releases the key on a server error or a refusal of the moment', async () => {
      await sut.settle(held, { status: 503, headers: {}, body: '{}' });
      await sut.settle(held, { status: 429, headers: {}, body: '{}' });
      expect(keys.release).toHaveBeenCalledTimes(2);
      expect(keys.complete).not.toHaveBeenCalled();
    });

    it('never fails the answer it follows', async () => {
      keys.complete.mockRejectedValue(new Error('connection lost'));
      await expect(sut.settle(held, { status: 200, headers: {}, body: '{}' })).resolves.toBeUndefined();
    });
  });
});
