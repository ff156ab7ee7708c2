import { randomUUID } from 'node:crypto';
import { EVENT_CATALOG, EventData, EventType } from './catalog';
import type { DomainEvent } from './envelope';

export class InvalidEventDataError extends Error {}

export interface EventInput<T extends EventType> {
  type: T;
  tenantCode: string;
  data: EventData<T>;
  correlationId?: string | null;
  occurredAt?: Date;
}

/**
 * Checks every input's data against its catalog schema, then gives each event its id and time.
 * All are checked before any is returned, so a batch with one bad event records none.
 */
export function newDomainEvents<T extends EventType>(inputs: readonly EventInput<T>[]): DomainEvent<T>[] {
  return inputs.map((input): DomainEvent<T> => {
    const parsed = EVENT_CATALOG[input.type].schema.safeParse(input.data);
    if (!parsed.success) {
      throw new InvalidEventDataError(
        `Data of ${input.type} does not match its schema: ${parsed.error.message}`,
      );
    }
    return {
      id: randomUUID(),
      type: input.type,
      tenantCode: input.tenantCode,
      occurredAt: (input.occurredAt ?? new Date()).toISOString(),
      correlationId: input.correlationId ?? null,
      data: parsed.data as EventData<T>,
    };
  });
}
