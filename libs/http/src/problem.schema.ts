import { z } from 'zod';

/** One invalid input of a `validation_failed` answer. */
export const fieldErrorSchema = z
  .object({
    field: z.string().meta({ description: 'The field, parameter or header: `device_id`, `scopes[1]`, `data.token`, `X-Timezone`, `body`.' }),
    message: z.string().meta({ description: 'What is wrong with it, for a person.' }),
  })
  .meta({ id: 'FieldError' });

export type FieldError = z.infer<typeof fieldErrorSchema>;

/**
 * RFC 9457 problem details with the platform's stable `code`: the body of
 * every error answer (application/problem+json). Loose, as RFC 9457 allows
 * extension members.
 */
export const problemSchema = z
  .looseObject({
    type: z
      .string()
      .regex(/^\/docs\/errors#[a-z0-9_]+$/)
      .meta({
        format: 'uri-reference',
        description:
          'Names the kind of problem: `/docs/errors#<code>`, relative to the URL of the API that answered (RFC 9457 3.1.1). ' +
          'That page, served beside this document, says what each code means and what to do about it.',
      }),
    title: z.string().meta({ description: 'The HTTP status text.' }),
    status: z.int().min(400).max(599).meta({ description: 'The HTTP status code.' }),
    detail: z.string().meta({ description: 'What happened, for a person; never a secret or a stack trace.' }),
    code: z.string().meta({ description: 'Stable machine-readable reason; each answer lists the codes it may carry.' }),
    request_id: z.string().optional().meta({ description: 'The `X-Request-Id` of the request: quote it when reporting a problem.' }),
    errors: z.array(fieldErrorSchema).optional().meta({ description: 'With `validation_failed`: every invalid field.' }),
    retry_after: z.int().min(1).optional().meta({ description: "With the gateway's `rate_limited`: the seconds of `Retry-After`." }),
    signing_string_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .meta({
        description:
          "With the gateway's `invalid_signature`, when it computed a signature: the lowercase hex SHA-256 of the string it signed. " +
          'Equal to the SHA-256 of your signing string, the strings match and the secret is wrong; different, a line differs (libs/signing/README.md).',
      }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details with a stable `code`.' });

export type Problem = z.infer<typeof problemSchema>;
