import { SetMetadata } from '@nestjs/common';

export const ANSWER_SUBJECT = 'fincore:idempotent-answer-subject';

/** What a kept answer is about: a subject type, and the field of the answer's JSON body naming it. */
export interface AnswerSubjectField {
  type: string;
  field: string;
}

/** A subject's id in a stored answer, so that erasing the subject can find the answers about it. */
export interface AnswerSubject {
  type: string;
  id: string;
}

/**
 * Marks a POST whose answer carries data of the subject named by `field` of its JSON body (a
 * person created, say): a kept answer is stored with that subject, so that erasing the subject
 * deletes it (see IdempotencyKeyRepository.deleteAnswersAbout).
 */
export const IdempotentAnswerAbout = (type: string, field: string) =>
  SetMetadata(ANSWER_SUBJECT, { type, field } satisfies AnswerSubjectField);

/** The subject a successful JSON answer names in `about.field`; undefined for any other answer. */
export function subjectOfAnswer(
  about: AnswerSubjectField | undefined,
  status: number,
  body: string | null,
): AnswerSubject | undefined {
  if (!about || status < 200 || status > 299 || body === null) return undefined;
  try {
    const id = (JSON.parse(body) as Record<string, unknown>)[about.field];
    return typeof id === 'string' ? { type: about.type, id } : undefined;
  } catch {
    return undefined;
  }
}
