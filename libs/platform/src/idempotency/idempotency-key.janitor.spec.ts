import { Logger } from '@nestjs/common';
import { newDouble } from '@test/support/doubles';
import { IdempotencyKeyJanitor } from './idempotency-key.janitor';
import type { IdempotencyKeyRepository } from './idempotency-key.repository';

describe('IdempotencyKeyJanitor', () => {
  let keys: jest.Mocked<IdempotencyKeyRepository>;
  let sut: IdempotencyKeyJanitor;

  beforeEach(() => {
    keys = newDouble<IdempotencyKeyRepository>();
    sut = new IdempotencyKeyJanitor(keys);
  });
  afterEach(() => jest.restoreAllMocks());

  describe('deleteExpired', () => {
    it('deletes batch after batch until a batch is not full', async () => {
      keys.deleteExpired.mockResolvedValueOnce(1000).mockResolvedValueOnce(1000).mockResolvedValueOnce(7);
      expect(await sut.deleteExpired()).toBe(2007);
      expect(keys.deleteExpired).toHaveBeenCalledTimes(3);
      expect(keys.deleteExpired).toHaveBeenCalledWith(1000);
    });

    it('logs a failure and tries again at the next round instead of failing the process', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation();
      keys.deleteExpired.mockResolvedValueOnce(1000).mockRejectedValueOnce(new Error('connection lost'));
      expect(await sut.deleteExpired()).toBe(1000);
      expect(warn).toHaveBeenCalledTimes(1);
    });
  });
});
