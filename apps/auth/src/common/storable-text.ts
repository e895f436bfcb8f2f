import { z } from 'zod';

// An unpaired UTF-16 surrogate, which jsonb refuses.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * A string PostgreSQL can store: text and jsonb hold neither NUL nor an
 * unpaired surrogate, so such input is a 400 naming the field, not a failed
 * query and a 500 (no bad input may yield a 5xx).
 */
export const storableString = () =>
  z.string().refine((value) => !value.includes('\u0000') && !LONE_SURROGATE.test(value), 'must not contain NUL or unpaired surrogate characters');
