import { z } from 'zod';

export const isoDateTime = z.iso.datetime({ offset: true });

/** One event type: what it means, the schema of its `data`, and an example that schema accepts. */
export interface EventTypeEntry {
  description: string;
  schema: z.ZodType;
  /** Shown in the AsyncAPI document; `catalog.spec.ts` holds it to the schema. */
  example: Record<string, unknown>;
  /** The data fields that name what the event is about: all a thin webhook keeps beside `changedFields`. */
  ids: readonly string[];
  /** The data fields that hold a person's data, removed from every stored event of the person on erasure. */
  personalData: readonly string[];
}
