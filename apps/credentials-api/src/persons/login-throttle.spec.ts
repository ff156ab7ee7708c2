import { Logger } from '@nestjs/common';
import type { AppConfig, RateLimiter } from '@fincore/platform';
import { newDouble } from '@test/support/doubles';
import { LoginThrottle, PasswordCheck } from './login-throttle';

const problem = (code: string, status: number) => expect.objectContaining({ code, status });

describe('LoginThrottle', () => {
  let limiter: jest.Mocked<RateLimiter>;
  let sut: LoginThrottle;
  const config = { AUTH_MAX_FAILURES: 5, AUTH_LOCKOUT_SECONDS: 900 } as AppConfig;

  beforeEach(() => {
    limiter = newDouble<RateLimiter>();
    limiter.key.mockImplementation((...parts: string[]) => parts.join(':'));
    limiter.peek.mockResolvedValue({ count: 0, retryAfter: 1 });
    limiter.consume.mockResolvedValue({ allowed: true, count: 1, retryAfter: 900 });
    limiter.reset.mockResolvedValue();
    sut = new LoginThrottle(limiter, config);
  });
  afterEach(() => jest.restoreAllMocks());

  describe('startCheck', () => {
    it('counts the check against the username, case-insensitively and without storing it', async () => {
      const check = await sut.startCheck('tenant-1', 'Ada.Lovelace');
      expect(await sut.startCheck('tenant-1', 'ada.lovelace')).toEqual(check);
      expect(check.ordinal).toBe(1);
      expect(check.keys.failures).toMatch(/^auth-failures:[0-9a-f]{64}$/);
      expect(limiter.consume).toHaveBeenCalledWith(check.keys.failures, 5, 900);
      expect(await sut.startCheck('tenant-2', 'ada.lovelace')).not.toEqual(check);
    });

    it('answers 429 with Retry-After while the username is locked, counting nothing', async () => {
      limiter.peek.mockResolvedValue({ count: 1, retryAfter: 42 });
      await expect(sut.startCheck('tenant-1', 'ada')).rejects.toEqual(
        expect.objectContaining({
          code: 'credentials_locked',
          status: 429,
          headers: { 'retry-after': '42' },
        }),
      );
      expect(limiter.consume).not.toHaveBeenCalled();
    });

    it('answers 429 once the checks of the window reach the limit', async () => {
      limiter.consume.mockResolvedValue({ allowed: false, count: 6, retryAfter: 30 });
      await expect(sut.startCheck('tenant-1', 'ada')).rejects.toEqual(problem('credentials_locked', 429));
    });

    it('lets the check run uncounted when Redis is away', async () => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      limiter.peek.mockRejectedValue(new Error('ECONNREFUSED'));
      expect((await sut.startCheck('tenant-1', 'ada')).ordinal).toBe(0);
    });
  });

  describe('recordFailure', () => {
    const check = (ordinal: number): PasswordCheck => ({ keys: { failures: 'f', lock: 'l' }, ordinal });

    it('locks the username for the lockout time at the failure that reaches the limit', async () => {
      await sut.recordFailure(check(4));
      expect(limiter.consume).not.toHaveBeenCalled();
      await sut.recordFailure(check(5));
      expect(limiter.consume).toHaveBeenCalledWith('l', 1, 900);
    });
  });

  describe('abandon', () => {
    it('takes a check that could not be judged back from the failures, and never fails the request', async () => {
      jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      limiter.giveBack.mockRejectedValue(new Error('Command timed out'));
      await expect(sut.abandon({ keys: { failures: 'f', lock: 'l' }, ordinal: 3 })).resolves.toBeUndefined();
      expect(limiter.giveBack).toHaveBeenCalledWith('f');
    });

    it('has nothing to take back from a check the throttle could not count', async () => {
      await sut.abandon({ keys: { failures: 'f', lock: 'l' }, ordinal: 0 });
      expect(limiter.giveBack).not.toHaveBeenCalled();
    });
  });

  describe('recordSuccess', () => {
    it('clears the failures but not a running lock, and never fails the login', async () => {
      limiter.reset.mockRejectedValue(new Error('ECONNREFUSED'));
      await expect(
        sut.recordSuccess({ keys: { failures: 'f', lock: 'l' }, ordinal: 1 }),
      ).resolves.toBeUndefined();
      expect(limiter.reset).toHaveBeenCalledWith('f');
      expect(limiter.reset).not.toHaveBeenCalledWith('l');
    });
  });

  describe('clear', () => {
    it("ends the username's failures and lock", async () => {
      const { keys } = await sut.startCheck('tenant-1', 'ada');
      await sut.clear('tenant-1', 'ADA');
      expect(limiter.reset).toHaveBeenCalledWith(keys.failures);
      expect(limiter.reset).toHaveBeenCalledWith(keys.lock);
    });
  });
});
