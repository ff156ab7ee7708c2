import { localise } from './messages';
import { defineProblems } from './problem-catalog';
import { ProblemException } from './problem';

const title = (en: string) => ({ en, de: `${en} (de)` });

describe('defineProblems', () => {
  const sut = defineProblems({
    spec_thing_missing: {
      status: 404,
      title: title('Thing missing'),
      detail: { en: 'There is no thing {thingId}.', de: 'Es gibt kein Ding {thingId}.' },
    },
    spec_thing_busy: { status: 409, title: title('Thing busy') },
    spec_proof_wrong: { status: [401, 422], title: title('Proof wrong') },
  });

  it('raises each code with the status of its catalog entry and the parameters given', () => {
    const problem = sut.spec_thing_missing({ thingId: 't-1' });
    expect(problem).toBeInstanceOf(ProblemException);
    expect(problem).toMatchObject({ code: 'spec_thing_missing', status: 404, params: { thingId: 't-1' } });
    expect(problem).toMatchObject({ errors: undefined, headers: {}, extensions: {} });
  });

  it('registers the titles and details of its codes', () => {
    expect(localise('spec_thing_missing', 'de', { thingId: 't-1' })).toEqual({
      title: 'Thing missing (de)',
      detail: 'Es gibt kein Ding t-1.',
    });
  });

  it('passes errors[] entries, headers and extension members on', () => {
    const errors = [{ field: 'thingId', message: 'taken' }];
    const problem = sut.spec_thing_busy(
      {},
      { errors, headers: { 'x-a': '1' }, extensions: { ids: ['t-1'] } },
    );
    expect(problem).toMatchObject({
      status: 409,
      errors,
      headers: { 'x-a': '1' },
      extensions: { ids: ['t-1'] },
    });
  });

  it('sends retryAfter as the Retry-After header and as a parameter of the detail', () => {
    const problem = sut.spec_thing_busy({ thingId: 't-1' }, { retryAfter: 7 });
    expect(problem.params).toEqual({ thingId: 't-1', retryAfter: 7 });
    expect(problem.headers).toEqual({ 'retry-after': '7' });
  });

  it('takes the status meant for a code that answers with more than one, and only a listed one', () => {
    expect(sut.spec_proof_wrong(401).status).toBe(401);
    expect(sut.spec_proof_wrong(422).status).toBe(422);
    expect(() => (sut.spec_proof_wrong as (status: number) => unknown)(400)).toThrow(/no status 400/);
  });

  it('refuses a code that another catalog gives another status', () => {
    expect(() => defineProblems({ spec_thing_busy: { status: 423, title: title('Thing busy') } })).toThrow(
      /registered twice/,
    );
  });
});
