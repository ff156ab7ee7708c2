import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiDocs } from '../api-docs/api-docs';

export const WITHOUT_IDEMPOTENCY_KEY = 'fincore:without-idempotency-key';
/** Marks the operation in the OpenAPI document until the document is completed (then removed). */
export const WITHOUT_IDEMPOTENCY_KEY_EXTENSION = 'x-fincore-without-idempotency-key';

/**
 * A POST that changes no resource (a question with a body, such as a fee quote or an
 * authentication): the Idempotency-Key header is ignored there, and the answer never stored.
 */
export const WithoutIdempotencyKey = () =>
  applyDecorators(
    SetMetadata(WITHOUT_IDEMPOTENCY_KEY, true),
    ApiDocs((s) => [s.ApiExtension(WITHOUT_IDEMPOTENCY_KEY_EXTENSION, true)]),
  );
