import type { AttemptResult, Decision } from './retry-policy';

export interface FailedAttemptLine {
  /** `log` (info) while the delivery will be tried again, `warn` once it will not. */
  level: 'log' | 'warn';
  message: string;
}

/**
 * The one log line of a failed attempt: ids, what the receiver answered (or why nothing came
 * back) and when the delivery is tried again. Never the URL, which may hold a subscriber's token
 * in its path or query, nor anything of the payload.
 */
export function failedAttemptLine(attempt: {
  deliveryId: string;
  endpointId: string;
  result: AttemptResult;
  decision: Decision;
  nextAt: Date | null;
}): FailedAttemptLine | undefined {
  const { deliveryId, endpointId, result, decision, nextAt } = attempt;
  if (decision.kind === 'succeeded') return undefined;
  const answer = result.kind === 'response' ? `HTTP ${result.statusCode}` : `error: ${result.message}`;
  const failed = `Webhook attempt failed: delivery ${deliveryId}, endpoint ${endpointId}, ${answer}`;
  if (nextAt) return { level: 'log', message: `${failed}; next attempt at ${nextAt.toISOString()}` };
  const why =
    decision.kind === 'endpoint_gone'
      ? 'the endpoint is gone'
      : decision.kind === 'failed'
        ? 'the retry schedule is exhausted'
        : 'the delivery is no longer pending';
  return { level: 'warn', message: `${failed}; no next attempt: ${why}` };
}
