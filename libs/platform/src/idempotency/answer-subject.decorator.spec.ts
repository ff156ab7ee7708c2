import { subjectOfAnswer } from './answer-subject.decorator';

describe('subjectOfAnswer', () => {
  const about = { type: 'person', field: 'personId' };

  it('names the subject of a successful JSON answer from the given field', () => {
    const sut = subjectOfAnswer(about, 201, JSON.stringify({ personId: 'p-1', firstName: 'Ada' }));
    expect(sut).toEqual({ type: 'person', id: 'p-1' });
  });

  it('names none for a route that declares none, a refusal, a body without the field, or no JSON', () => {
    const body = JSON.stringify({ personId: 'p-1' });
    expect(subjectOfAnswer(undefined, 201, body)).toBeUndefined();
    expect(subjectOfAnswer(about, 409, body)).toBeUndefined();
    expect(subjectOfAnswer(about, 200, JSON.stringify({ cardId: 'c-1' }))).toBeUndefined();
    expect(subjectOfAnswer(about, 200, JSON.stringify({ personId: 7 }))).toBeUndefined();
    expect(subjectOfAnswer(about, 200, 'not json')).toBeUndefined();
    expect(subjectOfAnswer(about, 204, null)).toBeUndefined();
  });
});
