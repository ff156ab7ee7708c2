import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REPLAYED_HEADERS, StoredAnswer } from './idempotency-key';
import { HeldIdempotencyKey, IdempotencyKeys } from './idempotency-keys.service';

const STATE = Symbol('fincore.idempotency');

type IdempotencyState =
  { kind: 'claimed'; held: HeldIdempotencyKey } | { kind: 'replay'; answer: StoredAnswer };
type WithState = { [STATE]?: IdempotencyState };

export function markClaimed(request: object, held: HeldIdempotencyKey): void {
  (request as WithState)[STATE] = { kind: 'claimed', held };
}

export function markReplay(request: object, answer: StoredAnswer): void {
  (request as WithState)[STATE] = { kind: 'replay', answer };
}

/** The answer as it goes out, in the form it is stored; undefined when it is not text (not ours to keep). */
function answerOf(reply: FastifyReply, payload: unknown): StoredAnswer | undefined {
  if (payload !== undefined && payload !== null && typeof payload !== 'string') return undefined;
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return { status: reply.statusCode, headers, body: payload ?? null };
}

/**
 * Sees every answer as it is sent (successes and problems alike, after serialisation), so what is
 * stored is what the client got: settles the request's claim before the answer leaves (a retry
 * that follows it finds the key completed), and puts a stored answer in place of a replay's.
 */
export function registerIdempotentReplies(fastify: FastifyInstance, keys: IdempotencyKeys): void {
  // Callback style: most answers hold no key, and an async hook would cost them a promise each.
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
    const state = (request as WithState)[STATE];
    if (!state) return done(null, payload);
    if (state.kind === 'replay') {
      void reply
        .code(state.answer.status)
        .headers(state.answer.headers)
        .header('idempotent-replayed', 'true');
      return done(null, state.answer.body ?? undefined);
    }
    // Settled once, even if the answer is sent again (an error raised while sending it).
    delete (request as WithState)[STATE];
    const answer = answerOf(reply, payload);
    (answer ? keys.settle(state.held, answer) : keys.release(state.held)).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
