import { checkInput, validationFailed } from '@meter/http';
import type { z } from 'zod';

/** Validates a request body with its strict schema through the one input pipe; every problem names its field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null) throw validationFailed([{ field: 'body', message: 'a JSON object is required' }]);
  return checkInput(schema, body);
}
