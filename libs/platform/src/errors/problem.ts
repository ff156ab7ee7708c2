export interface FieldError {
  /** Path of the offending field, e.g. `authorisationTypes[2].serviceCode`; empty for the body itself. */
  field: string;
  /** In English; answers in another language take the first of `messageKeys` registered for it. */
  message: string;
  code?: string;
  /** Keys of localised field messages (registerFieldMessages), most specific first; never sent. */
  messageKeys?: string[];
  /** Values for the `{name}` placeholders of those messages; never sent. */
  messageParams?: Record<string, unknown>;
}

/**
 * A failure the caller can act on, rendered as application/problem+json. `code` is the stable
 * machine code; its title and detail come localised from the message registry. Code raises it
 * through its context's problem factories (defineProblems), which hold each code's status.
 */
export class ProblemException extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly params: Record<string, unknown> = {},
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
    /** Extra members of the problem body (RFC 9457 extension members). */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(code);
    this.name = 'ProblemException';
  }
}
