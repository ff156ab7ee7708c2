import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { z } from 'zod';
import {
  ApiAuth,
  AppDefinition,
  CurrentPrincipal,
  Principal,
  ProblemException,
  RequireTenantHeader,
  TokenAdmin,
} from '@fincore/platform';
import { eventually } from './support/http';
import { expectProblem } from './support/problems';
import { RunningApp, TestStack } from './support/stack';

const ProbeBody = z
  .object({ name: z.string().min(1).max(10), items: z.array(z.object({ code: z.string() })).optional() })
  .strict();

/** A probe app exercising the platform alone: guard, scopes, tenant header, validation, errors. */
@Controller('api/v1/probe')
class ProbeController {
  @Post('echo')
  @HttpCode(200)
  @ApiAuth('cards:read')
  echo(
    @Body({ schema: ProbeBody }) body: z.infer<typeof ProbeBody>,
    @CurrentPrincipal() principal: Principal,
  ) {
    return { ...body, tenantCode: principal.tenantCode };
  }

  @Post('tenant-required')
  @HttpCode(200)
  @ApiAuth('cards:read')
  @RequireTenantHeader()
  tenantRequired() {
    return { ok: true };
  }

  @Post('boom')
  @ApiAuth()
  boom(): never {
    throw new Error('secret internal detail');
  }

  @Post('conflict')
  @ApiAuth()
  conflict(): never {
    throw new ProblemException('conflict', 409);
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

const ProbeApp: AppDefinition = {
  name: 'probe',
  title: 'probe',
  description: 'probe',
  module: ProbeModule,
  port: () => 0,
};

describe('platform (HTTP contract of every app)', () => {
  let stack: TestStack;
  let sut: RunningApp;
  let token: string;

  beforeAll(async () => {
    stack = await TestStack.create();
    sut = await stack.startApp(ProbeApp);
    token = (await stack.createTenant({ code: 'ACME' })).token;
  });
  afterAll(() => stack.close());

  it('accepts a valid request with the right scope', async () => {
    const r = await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ name: 'ok', tenantCode: 'ACME' });
  });

  it('answers 401 without a token, with a bad token, and with a malformed one', async () => {
    expectProblem(await sut.api.post('/api/v1/probe/echo', { name: 'ok' }), 401, 'unauthenticated');
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: `fct_${'A'.repeat(43)}` }),
      401,
      'unauthenticated',
    );
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: 'nonsense' }),
      401,
      'unauthenticated',
    );
  });

  it('localises title and detail by Accept-Language, with English as fallback', async () => {
    const de = await sut.api.post(
      '/api/v1/probe/echo',
      { name: 'ok' },
      { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } },
    );
    expect(de.body.title).toBe('Authentifizierung erforderlich');
    expect(de.headers.get('content-language')).toBe('de');
    const fr = await sut.api.post(
      '/api/v1/probe/echo',
      { name: 'ok' },
      { headers: { 'accept-language': 'fr' } },
    );
    expect(fr.body.title).toBe('Authentication required');
    expect(fr.headers.get('content-language')).toBe('en');
  });

  it('answers 403 when the token lacks the scope', async () => {
    const fixture = await stack.createTenant();
    const weak = await fixture.tokenWith(['persons:read']);
    const r = await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: weak });
    expectProblem(r, 403, 'insufficient_scope');
    expect(r.body.detail).toContain('cards:read');
  });

  it('answers 403 when x-tenant-code is not the token tenant, and 400 when a required one is missing', async () => {
    expectProblem(
      await sut.api.post(
        '/api/v1/probe/echo',
        { name: 'ok' },
        { token, headers: { 'x-tenant-code': 'OTHER' } },
      ),
      403,
      'tenant_mismatch',
    );
    expect(
      (
        await sut.api.post(
          '/api/v1/probe/echo',
          { name: 'ok' },
          { token, headers: { 'x-tenant-code': 'ACME' } },
        )
      ).status,
    ).toBe(200);
    expectProblem(
      await sut.api.post('/api/v1/probe/tenant-required', {}, { token }),
      400,
      'tenant_header_required',
    );
    expect(
      (
        await sut.api.post(
          '/api/v1/probe/tenant-required',
          {},
          { token, headers: { 'x-tenant-code': 'ACME' } },
        )
      ).status,
    ).toBe(200);
  });

  it('answers 400 with field paths for schema violations', async () => {
    const r = await sut.api.post(
      '/api/v1/probe/echo',
      { name: '', items: [{ code: 1 }], extra: true },
      { token },
    );
    expectProblem(r, 400, 'validation_failed');
    const fields = r.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'items[0].code']));
    expect(r.body.errors.some((e: { message: string }) => /extra/.test(e.message))).toBe(true);
  });

  it('answers malformed or too deeply nested JSON 400, oversized body 413, text/plain 415, unknown route 404 — all problem+json', async () => {
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', '{"name":', {
        token,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'malformed_json',
    );
    const deep = `{"name":${'['.repeat(33)}${']'.repeat(33)}}`;
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', deep, {
        token,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'json_too_deep',
    );
    expect(
      (
        await sut.api.post(
          '/api/v1/probe/echo',
          `{"name":"${'['.repeat(10)}","items":[{"code":"${'{'.repeat(40)}"}]}`,
          {
            token,
            headers: { 'content-type': 'application/json' },
          },
        )
      ).status,
    ).toBe(200);
    const big = JSON.stringify({ name: 'x'.repeat(stack.config.HTTP_BODY_LIMIT + 10) });
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', big, {
        token,
        headers: { 'content-type': 'application/json' },
      }),
      413,
      'payload_too_large',
    );
    expectProblem(
      await sut.api.post('/api/v1/probe/echo', 'name=x', {
        token,
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    );
    expectProblem(await sut.api.get('/api/v1/nowhere', { token }), 404, 'route_not_found');
  });

  it('answers an unexpected error with a generic 500 that leaks nothing', async () => {
    const r = await sut.api.post('/api/v1/probe/boom', {}, { token });
    expectProblem(r, 500, 'internal_error');
    expect(r.text).not.toContain('secret internal detail');
    expect(r.text).not.toContain('at ');
  });

  it('takes a sane x-request-id and generates one otherwise', async () => {
    const given = await sut.api.post(
      '/api/v1/probe/conflict',
      {},
      { token, headers: { 'x-request-id': 'abc-123' } },
    );
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    expectProblem(given, 409, 'conflict');
    const bad = await sut.api.post(
      '/api/v1/probe/conflict',
      {},
      { token, headers: { 'x-request-id': 'a b<script>' } },
    );
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a token at once after token:revoke', async () => {
    const fixture = await stack.createTenant();
    expect((await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: fixture.token })).status).toBe(
      200,
    );
    await new TokenAdmin(await stack.db()).revokeToken(fixture.tokenEntity.id);
    // What the CLI does after revoking: tell every replica to drop its cached copy.
    await stack.redis().publish(`{${stack.config.QUEUE_PREFIX}}:token-revoked`, fixture.tokenEntity.id);
    // Pub/sub is asynchronous: poll for the refusal instead of guessing how long delivery takes.
    const refused = await eventually(
      async () => {
        const res = await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: fixture.token });
        return res.status !== 200 && res;
      },
      { timeoutMs: 5_000, what: 'the revoked token to be refused' },
    );
    expectProblem(refused, 401, 'unauthenticated');
  });

  it('records when a token was last used', async () => {
    const fixture = await stack.createTenant();
    const db = await stack.db();
    const lastUsedAt = async (): Promise<Date | null> =>
      (
        await db.query(`SELECT last_used_at FROM platform.api_tokens WHERE id = $1`, [fixture.tokenEntity.id])
      )[0].last_used_at;
    expect(await lastUsedAt()).toBeNull();
    await sut.api.post('/api/v1/probe/echo', { name: 'ok' }, { token: fixture.token });
    // The write is deliberately off the request path, so it lands shortly after the response.
    await eventually(lastUsedAt, { what: 'last_used_at to be recorded' });
  });

  it('serves health, metrics and the OpenAPI document without a token', async () => {
    expect((await sut.api.get('/health/live')).status).toBe(200);
    const ready = await sut.api.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.details).toMatchObject({ postgres: { status: 'up' }, redis: { status: 'up' } });
    const metrics = await sut.api.get('/metrics');
    expect(metrics.text).toContain('http_request_duration_seconds_bucket');
    expect(metrics.text).toContain('route="/api/v1/probe/echo"');
    expect(metrics.text).toContain('process_cpu_seconds_total');
    const doc = await sut.api.get('/docs-json');
    expect(doc.body.components.securitySchemes['x-auth-token']).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-auth-token',
    });
    expect(doc.body.paths['/api/v1/probe/echo'].post.requestBody).toBeDefined();
    expect((await sut.api.get('/docs')).status).toBe(200);
  });
});

describe('rate limiting shared across replicas', () => {
  let stack: TestStack;
  afterAll(() => stack.close());

  it('counts requests of one token across two app instances and answers 429 with Retry-After', async () => {
    stack = await TestStack.create({ RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const a = await stack.startApp(ProbeApp);
    const b = await stack.startApp(ProbeApp);
    const { token } = await stack.createTenant();
    const statuses = [];
    for (const app of [a, b, a, b])
      statuses.push((await app.api.post('/api/v1/probe/echo', { name: 'x' }, { token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await a.api.post('/api/v1/probe/echo', { name: 'x' }, { token });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.code).toBe('rate_limited');
  });
});
