import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type Schemas = components['schemas'];

/**
 * The notification API, typed from its OpenAPI document. Same origin, the session cookie sent by
 * the browser; the portal header marks every request as the portal's own (the API refuses a
 * change carried by the cookie alone).
 */
export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  headers: { 'x-fincore-portal': '1' },
});

/** A field the API refused, as its validation problem names it (`filter.any.0.path`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** An error answer of the API, with its problem detail (in the browser's language). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: readonly FieldProblem[] = [],
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's body, or an ApiProblem with the detail the API gave. */
export async function answer<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (response.ok) return data as T;
  const problem = (error ?? {}) as { detail?: string; title?: string; errors?: FieldProblem[] };
  throw new ApiProblem(
    response.status,
    problem.detail ?? problem.title ?? response.statusText,
    problem.errors ?? [],
  );
}
