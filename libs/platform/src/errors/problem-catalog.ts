import { MessageDefinition, registerMessages } from './messages';
import { FieldError, ProblemException } from './problem';

/** A problem code: the HTTP status of its answers, and its title and detail. */
export interface ProblemDefinition extends MessageDefinition {
  /** One status; a code that answers with more than one lists them, and its factory takes the one meant. */
  status: number | readonly number[];
}

/** What a problem carries besides its code and the parameters of its detail. */
export interface ProblemOptions {
  /** errors[] entries, one per offending field. */
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members of the problem body (RFC 9457 extension members). */
  extensions?: Record<string, unknown>;
  /** Seconds until a retry can succeed: sent as Retry-After and given to the detail as {retryAfter}. */
  retryAfter?: number;
}

type Params = Record<string, unknown>;
type StatusChoice<S> = S extends readonly (infer Status)[] ? Status : never;

/** Raises one code with its status from the catalog. */
export type ProblemFactory<D extends ProblemDefinition> = D['status'] extends number
  ? (params?: Params, options?: ProblemOptions) => ProblemException
  : (status: StatusChoice<D['status']>, params?: Params, options?: ProblemOptions) => ProblemException;

export type ProblemFactories<C extends Record<string, ProblemDefinition>> = {
  [Code in keyof C]: ProblemFactory<C[Code]>;
};

function raise(code: string, status: number, params: Params = {}, options: ProblemOptions = {}) {
  const { errors, headers = {}, extensions = {}, retryAfter } = options;
  if (retryAfter === undefined)
    return new ProblemException(code, status, params, errors, headers, extensions);
  const retryHeaders = { ...headers, 'retry-after': String(retryAfter) };
  return new ProblemException(code, status, { ...params, retryAfter }, errors, retryHeaders, extensions);
}

/**
 * The problem codes of one context, each with its status and messages in one place: registers the
 * messages and returns a factory per code. The context's own file wraps these in named, typed
 * factories (`cardNotFound(cardId)`); nothing else states a code's status.
 */
export function defineProblems<const C extends Record<string, ProblemDefinition>>(
  catalog: C,
): ProblemFactories<C> {
  registerMessages(catalog);
  const factories: Record<string, (...args: never[]) => ProblemException> = {};
  for (const [code, { status }] of Object.entries(catalog)) {
    factories[code] =
      typeof status === 'number'
        ? (params?: Params, options?: ProblemOptions) => raise(code, status, params, options)
        : (chosen: number, params?: Params, options?: ProblemOptions) => {
            if (!status.includes(chosen)) throw new Error(`Problem code ${code} has no status ${chosen}`);
            return raise(code, chosen, params, options);
          };
  }
  return factories as ProblemFactories<C>;
}
