import { Injectable, NestMiddleware } from '@nestjs/common';
import { requestContext } from '../context/request-context';

/** Opens the request's async context; everything the handler awaits can read the request id. */
@Injectable()
export class RequestContextMiddleware implements NestMiddleware {
  use(req: { id?: string; headers: Record<string, unknown> }, _res: unknown, next: () => void): void {
    const requestId = String(req.headers['x-request-id'] ?? req.id ?? '');
    requestContext.run({ requestId }, next);
  }
}
