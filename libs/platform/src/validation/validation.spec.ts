import { z } from 'zod';
import { ProblemException } from '../errors/problem';
import { renderProblem } from '../errors/render';
import { freeText } from './primitives';
import { stripProtoKeys } from '@nestjs/common/utils/strip-proto-keys.util';
import { stripPlainProtoKeys, toFieldErrors } from './validation';

const Body = z
  .object({
    name: z.string().min(3),
    code: z.string().length(2),
    count: z.number().int().max(5),
    ratio: z.number().gt(0),
    tags: z.array(z.string()).min(1),
    id: z.uuid(),
    kind: z.enum(['CARD', 'ACCOUNT']),
    pattern: z.string().regex(/^[A-Z]+$/),
    from: z.string().refine((v) => v !== 'bad', 'a rule of this schema'),
    note: freeText({ max: 10 }).optional(),
    missing: z.string(),
  })
  .strict();

const VALID = {
  name: 'abc',
  code: 'AB',
  count: 1,
  ratio: 1,
  tags: ['x'],
  id: '5b1f3c52-1f9e-4c1b-9d7e-0b8a3c6f2d11',
  kind: 'CARD',
  pattern: 'ABC',
  from: 'ok',
  missing: 'here',
};

/** The errors[] of a validation problem for `body`, answered in `language`. */
function errorsOf(body: unknown, language: string): Record<string, string> {
  const issues = Body['~standard'].validate(body);
  if (issues instanceof Promise || !issues.issues) throw new Error('expected issues');
  const sut = renderProblem(
    new ProblemException('validation_failed', 400, {}, toFieldErrors(issues.issues)),
    { url: '/x', headers: { 'accept-language': language } },
    'request-1',
    1000,
  );
  return Object.fromEntries((sut.body.errors ?? []).map((e) => [e.field, e.message]));
}

describe('toFieldErrors and their localised messages', () => {
  const invalid = {
    name: 'a',
    code: 'ABC',
    count: 9,
    ratio: 0,
    tags: [],
    id: 'nope',
    kind: 'OTHER',
    pattern: 'abc',
    from: 'bad',
    note: 'a\u0000b',
    extra: 1,
  };

  it('answers every kind of issue in German with the figures it names', () => {
    expect(errorsOf(invalid, 'de-DE,de;q=0.9')).toEqual({
      name: 'muss mindestens 3 Zeichen lang sein',
      code: 'muss genau 2 Zeichen lang sein',
      count: 'darf höchstens 5 sein',
      ratio: 'muss größer als 0 sein',
      tags: 'darf nicht leer sein',
      id: 'muss eine UUID sein',
      kind: 'muss einer dieser Werte sein: CARD, ACCOUNT',
      pattern: 'hat nicht das erwartete Format',
      from: 'ist ungültig',
      note: 'darf keine Steuerzeichen enthalten',
      missing: 'fehlt',
      '': 'unbekannte Felder: extra',
    });
    expect(errorsOf({ ...VALID, count: 'seven' }, 'de')).toEqual({ count: 'muss eine Zahl sein' });
  });

  it('keeps the English of the schema or of zod for English answers', () => {
    const errors = errorsOf(invalid, 'en');
    expect(errors.from).toBe('a rule of this schema');
    expect(errors.note).toBe('must not contain control characters');
    expect(errors.name).toMatch(/>=3 characters/);
    expect(errors.missing).toMatch(/expected string, received undefined/);
  });

  it('gives one entry per field, from its first issue, and sends neither keys nor parameters', () => {
    const Period = z
      .object({ from: z.string().min(10), to: z.string() })
      .superRefine((v, ctx) => ctx.addIssue({ code: 'custom', path: ['from'], message: 'after to' }));
    const result = Period['~standard'].validate({ from: 'short', to: 'x' });
    if (result instanceof Promise || !result.issues) throw new Error('expected issues');
    const errors = toFieldErrors(result.issues);
    expect(errors.map((e) => e.field)).toEqual(['from']);
    const rendered = renderProblem(
      new ProblemException('validation_failed', 400, {}, errors),
      { headers: { 'accept-language': 'de' } },
      undefined,
      1000,
    );
    expect(rendered.body.errors).toEqual([
      { field: 'from', message: 'muss mindestens 10 Zeichen lang sein' },
    ]);
  });

  it('translates a fixed English message of a service and leaves an unknown one as it is', () => {
    const sut = renderProblem(
      new ProblemException('tenant_header_required', 400, {}, [
        { field: 'header:x-tenant-code', message: 'required' },
        { field: 'x', message: 'something no one translated', code: 'odd' },
      ]),
      { headers: { 'accept-language': 'de' } },
      undefined,
      1000,
    );
    expect(sut.body.errors).toEqual([
      { field: 'header:x-tenant-code', message: 'erforderlich' },
      { field: 'x', message: 'something no one translated', code: 'odd' },
    ]);
  });
});

describe('stripPlainProtoKeys', () => {
  const body = () =>
    JSON.parse(
      '{"a":{"__proto__":{"x":1},"prototype":2,"constructor":3,"b":[{"constructor":{"y":1},"c":"d"},1,null]},"e":"f"}',
    ) as unknown;

  it("deletes what Nest's stripProtoKeys deletes from parsed JSON, at every level", () => {
    const sut = body();
    const nest = body();
    stripProtoKeys(nest);
    expect(stripPlainProtoKeys(sut)).toBe(true);
    expect(sut).toEqual(nest);
    expect(sut).toEqual({ a: { b: [{ c: 'd' }, 1, null] }, e: 'f' });
  });

  it('walks objects without a prototype, as query strings parse to', () => {
    const sut = Object.assign(Object.create(null) as object, { constructor: 'x', q: 'y' });
    expect(stripPlainProtoKeys(sut)).toBe(true);
    expect({ ...sut }).toEqual({ q: 'y' });
  });

  it('leaves primitives alone', () => {
    for (const value of [undefined, null, 1, 'text', true]) expect(stripPlainProtoKeys(value)).toBe(true);
  });

  it('hands anything but plain data back to Nest', () => {
    expect(stripPlainProtoKeys({ when: new Date(0) })).toBe(false);
    expect(stripPlainProtoKeys([new Map()])).toBe(false);
    class Dto {}
    expect(stripPlainProtoKeys({ dto: new Dto() })).toBe(false);
  });

  it('hands nesting deeper than any parsed body back to Nest', () => {
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { deep };
    expect(stripPlainProtoKeys(deep)).toBe(false);
  });
});
