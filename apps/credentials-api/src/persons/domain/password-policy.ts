import type { FieldError } from '@fincore/platform';
import { normalizePassword, usernameKey } from './credentials';

/**
 * Password policy after NIST SP 800-63B and OWASP: length over composition rules. Length counts
 * characters (code points), not bytes. The upper bound (1,024) is part of the request schema.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MIN_DISTINCT_CHARACTERS = 5;

export interface PasswordContext {
  username: string;
  personId: string;
}

/** Every rule the password breaks, as field errors on `password`; empty when it is acceptable. */
export function passwordPolicyViolations(password: string, context: PasswordContext): FieldError[] {
  const normalized = normalizePassword(password);
  const characters = [...normalized];
  const violations: FieldError[] = [];
  if (characters.length < PASSWORD_MIN_LENGTH) {
    violations.push({
      field: 'password',
      code: 'too_short',
      message: `must be at least ${PASSWORD_MIN_LENGTH} characters long`,
    });
  }
  if (new Set(characters).size < PASSWORD_MIN_DISTINCT_CHARACTERS) {
    violations.push({
      field: 'password',
      code: 'too_repetitive',
      message: `must contain at least ${PASSWORD_MIN_DISTINCT_CHARACTERS} different characters`,
    });
  }
  const lowered = usernameKey(normalized);
  for (const [name, value] of [
    ['username', context.username],
    ['personId', context.personId],
  ] as const) {
    // Short identifiers would forbid too much by accident; from 3 characters on they are guessable.
    if (value.length >= 3 && lowered.includes(usernameKey(value))) {
      violations.push({
        field: 'password',
        code: `contains_${name.toLowerCase()}`,
        message: `must not contain the ${name}`,
      });
    }
  }
  return violations;
}
