import { z } from '@hono/zod-openapi';

/**
 * What a failed check says, in words a person reads beside the field (the web pages and islands show
 * it there) and a developer reads in the envelope: "must be at most 10000", not zod's default
 * "Too big: expected number to be <=10000". A message a schema gives itself (`.regex(re, 'must be
 * an integer')`) wins over these; a case not named here keeps zod's own words.
 */
export function validationWords(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'too_big': {
      const max = String(issue.maximum);
      const under = issue.inclusive === false;
      if (issue.origin === 'string') return `must be at most ${max} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${max} items`;
      if (issue.origin === 'file') return `must be at most ${max} bytes`;
      return under ? `must be less than ${max}` : `must be at most ${max}`;
    }
    case 'too_small': {
      const min = String(issue.minimum);
      const over = issue.inclusive === false;
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${min} characters`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at least ${min} item${min === '1' ? '' : 's'}`;
      return over ? `must be more than ${min}` : `must be at least ${min}`;
    }
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${issue.expected === 'int' ? 'a whole number' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return undefined;
  }
}

z.config({ customError: validationWords });
