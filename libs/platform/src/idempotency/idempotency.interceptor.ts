import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, of } from 'rxjs';
import { Principal } from '../context/principal';
import { parseIdempotencyKey, requestFingerprint } from './idempotency-key';
import { IdempotencyKeys } from './idempotency-keys.service';
import { idempotencyKeyInFlight, idempotencyKeyInvalid, idempotencyKeyReused } from './idempotency.problems';
import { markClaimed, markReplay } from './idempotent-replies';
import { WITHOUT_IDEMPOTENCY_KEY } from './without-idempotency-key.decorator';
import { ANSWER_SUBJECT, AnswerSubjectField } from './answer-subject.decorator';

interface IncomingRequest {
  method: string;
  url: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

/**
 * Honours `Idempotency-Key` on state-changing POSTs. It runs after authentication and rate limits
 * (so 401, 403 and 429 never touch a key) and before validation and the handler: it claims the
 * key, or answers with what the key already holds (replay, 409 in flight, 422 reused).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    @Inject(IdempotencyKeys) private readonly keys: IdempotencyKeys,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<IncomingRequest>();
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.principal) return next.handle();
    if (
      this.reflector.getAllAndOverride<boolean>(WITHOUT_IDEMPOTENCY_KEY, [
        context.getHandler(),
        context.getClass(),
      ])
    ) {
      return next.handle();
    }
    const key = parseIdempotencyKey(header);
    if (key === undefined) {
      throw idempotencyKeyInvalid();
    }
    const fingerprint = requestFingerprint(key, request.method, request.url, request.body);
    const outcome = await this.keys.claim(request.principal.tenantId, key, fingerprint);
    switch (outcome.kind) {
      case 'claimed':
        markClaimed(request, {
          ...outcome.held,
          about: this.reflector.get<AnswerSubjectField | undefined>(ANSWER_SUBJECT, context.getHandler()),
        });
        return next.handle();
      case 'replay':
        // The stored status, headers and body replace this empty answer as it is sent.
        markReplay(request, outcome.answer);
        return of(undefined);
      case 'in_flight':
        throw idempotencyKeyInFlight();
      case 'mismatch':
        throw idempotencyKeyReused();
    }
  }
}
