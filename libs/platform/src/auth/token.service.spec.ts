import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { newDouble } from '@test/support/doubles';
import type { AppConfig } from '../config/config';
import type { ActiveToken, ApiTokenRepository } from './api-token.repository';
import { generateToken, hashToken } from './token-secret';
import { MAX_CACHED_TOKENS, TokenService } from './token.service';

describe('TokenService', () => {
  let tokens: jest.Mocked<ApiTokenRepository>;
  let redis: jest.Mocked<Redis>;
  let subscriber: jest.Mocked<Redis>;
  let sut: TokenService;
  const config = { QUEUE_PREFIX: 'fincore', TOKEN_CACHE_SECONDS: 10 } as AppConfig;
  const active: ActiveToken = { id: 'tok-1', tenantId: 'ten-1', tenantCode: 'ACME', scopes: ['cards:read'] };
  const token = generateToken();

  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2025-11-21T10:00:00Z') });
    tokens = newDouble<ApiTokenRepository>();
    tokens.findActiveByHash.mockResolvedValue(active);
    tokens.touchLastUsed.mockResolvedValue();
    redis = newDouble<Redis>();
    subscriber = newDouble<Redis>();
    subscriber.subscribe.mockResolvedValue(1);
    redis.duplicate.mockReturnValue(subscriber);
    sut = new TokenService(tokens, redis, config);
  });
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  describe('authenticate', () => {
    it('answers nothing for a value that is not a token, without asking the database', async () => {
      expect(await sut.authenticate('not-a-token')).toBeUndefined();
      expect(tokens.findActiveByHash).not.toHaveBeenCalled();
    });

    it('answers nothing for an unknown or revoked token', async () => {
      tokens.findActiveByHash.mockResolvedValue(undefined);
      expect(await sut.authenticate(token)).toBeUndefined();
    });

    it('looks the token up by its hash and returns its principal with frozen scopes', async () => {
      const principal = await sut.authenticate(token);
      expect(principal).toEqual({
        tokenId: 'tok-1',
        tenantId: 'ten-1',
        tenantCode: 'ACME',
        scopes: ['cards:read'],
      });
      expect(Object.isFrozen(principal!.scopes)).toBe(true);
      expect(tokens.findActiveByHash).toHaveBeenCalledWith(hashToken(token));
    });

    it('answers from the cache for TOKEN_CACHE_SECONDS, then asks again', async () => {
      await sut.authenticate(token);
      jest.advanceTimersByTime(9_999);
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(1);
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });

    it('caches nothing when TOKEN_CACHE_SECONDS is 0', async () => {
      sut = new TokenService(tokens, redis, { ...config, TOKEN_CACHE_SECONDS: 0 });
      await sut.authenticate(token);
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });

    it('records the use of a token at most once a minute', async () => {
      await sut.authenticate(token);
      await sut.authenticate(token);
      expect(tokens.touchLastUsed).toHaveBeenCalledTimes(1);
      expect(tokens.touchLastUsed).toHaveBeenCalledWith('tok-1');
      jest.advanceTimersByTime(60_000);
      await sut.authenticate(token);
      expect(tokens.touchLastUsed).toHaveBeenCalledTimes(2);
    });

    it('still authenticates when the use cannot be recorded', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      tokens.touchLastUsed.mockRejectedValue(new Error('read-only replica'));
      expect(await sut.authenticate(token)).toMatchObject({ tokenId: 'tok-1' });
      await jest.advanceTimersByTimeAsync(0);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('read-only replica'));
    });
  });

  describe('cachedPrincipal', () => {
    it('answers a cached token at once, and nothing for a token not cached or expired', async () => {
      expect(sut.cachedPrincipal(token)).toBeUndefined();
      const principal = await sut.authenticate(token);
      expect(sut.cachedPrincipal(token)).toBe(principal);
      jest.advanceTimersByTime(10_000);
      expect(sut.cachedPrincipal(token)).toBeUndefined();
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(1);
    });

    it('answers nothing once the token is revoked', async () => {
      await sut.authenticate(token);
      sut.forget('tok-1');
      expect(sut.cachedPrincipal(token)).toBeUndefined();
    });
  });

  describe('cache bound', () => {
    it('holds at most MAX_CACHED_TOKENS tokens, dropping the oldest first', async () => {
      const many = Array.from({ length: MAX_CACHED_TOKENS + 1 }, () => generateToken());
      for (const t of many) await sut.authenticate(t);
      tokens.findActiveByHash.mockClear();
      await sut.authenticate(many[MAX_CACHED_TOKENS]);
      await sut.authenticate(many[1]);
      expect(tokens.findActiveByHash).not.toHaveBeenCalled();
      await sut.authenticate(many[0]);
      expect(tokens.findActiveByHash).toHaveBeenCalledWith(hashToken(many[0]));
    });

    it('holds no token the database did not find', async () => {
      tokens.findActiveByHash.mockResolvedValue(undefined);
      await sut.authenticate(token);
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });
  });

  describe('forget', () => {
    it('drops the cached principal of the token, so the next call asks the database', async () => {
      await sut.authenticate(token);
      sut.forget('tok-1');
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });
  });

  describe('revocation during a lookup', () => {
    it('does not cache a principal read before a revocation that was heard while reading', async () => {
      let answer!: (token: ActiveToken) => void;
      tokens.findActiveByHash.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
      const lookup = sut.authenticate(token);
      sut.forget('tok-1');
      answer(active);
      await lookup;
      tokens.findActiveByHash.mockResolvedValue(undefined);
      expect(await sut.authenticate(token)).toBeUndefined();
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });
  });

  describe('onModuleInit', () => {
    it('forgets a token as soon as its revocation is published', async () => {
      await sut.onModuleInit();
      expect(subscriber.subscribe).toHaveBeenCalledWith('{fincore}:token-revoked');
      await sut.authenticate(token);
      const onMessage = subscriber.on.mock.calls.find(([event]) => event === 'message')![1] as (
        channel: string,
        tokenId: string,
      ) => void;
      onMessage('{fincore}:token-revoked', 'tok-1');
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });

    it('forgets every cached token when the subscriber (re)connects, as revocations may have been missed', async () => {
      await sut.onModuleInit();
      await sut.authenticate(token);
      const onReady = subscriber.on.mock.calls.find(([event]) => event === 'ready')![1] as () => void;
      onReady();
      await sut.authenticate(token);
      expect(tokens.findActiveByHash).toHaveBeenCalledTimes(2);
    });

    it('starts without revocations when Redis refuses the subscription', async () => {
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      subscriber.subscribe.mockRejectedValue(new Error('NOAUTH'));
      await expect(sut.onModuleInit()).resolves.toBeUndefined();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('NOAUTH'));
    });
  });
});
