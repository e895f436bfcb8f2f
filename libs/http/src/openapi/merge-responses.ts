import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import type { HeaderObject, HeadersObject, ReferenceObject } from 'openapi3-ts/oas31';
import { PROBLEM_CONTENT_TYPE } from '../problem';

type Examples = Record<string, unknown>;

/**
 * One status of an operation, answered for several reasons: the route's own
 * answer and one the platform or the API gives every route (a 503 of the
 * route's dependency and the database's). Two problem answers become one with
 * every example (the route's first; an example of the same name stays the
 * route's), both descriptions, and the headers of both, each required only
 * when both require it. Otherwise the route's own answer stands.
 */
export function mergeResponse(own: ResponseConfig | undefined, shared: ResponseConfig): ResponseConfig {
  if (!own) return shared;
  const ownProblems = own.content?.[PROBLEM_CONTENT_TYPE];
  const sharedProblems = shared.content?.[PROBLEM_CONTENT_TYPE];
  if (!ownProblems || !sharedProblems || !('schema' in ownProblems) || !('schema' in sharedProblems)) return own;
  const ownExamples = (ownProblems.examples ?? {}) as Examples;
  const added = Object.entries((sharedProblems.examples ?? {}) as Examples).filter(([name]) => !(name in ownExamples));
  if (!added.length) return own;
  const headers = mergeHeaders(own.headers as HeadersObject | undefined, shared.headers as HeadersObject | undefined);
  return {
    ...own,
    description: [own.description, shared.description].filter(Boolean).join('\n\n'),
    ...(headers ? { headers } : {}),
    content: {
      ...own.content,
      [PROBLEM_CONTENT_TYPE]: { ...ownProblems, examples: { ...ownExamples, ...Object.fromEntries(added) } as typeof ownProblems.examples },
    },
  };
}

/** Adds each of `shared` to `responses`, merged with what is there (mergeResponse). */
export function addResponses(responses: Record<number, ResponseConfig>, shared: Record<number, ResponseConfig>): void {
  for (const [status, response] of Object.entries(shared)) responses[Number(status)] = mergeResponse(responses[Number(status)], response);
}

function mergeHeaders(own: HeadersObject | undefined, shared: HeadersObject | undefined): HeadersObject | undefined {
  if (!own && !shared) return undefined;
  const names = new Set([...Object.keys(own ?? {}), ...Object.keys(shared ?? {})]);
  const required = (header: HeaderObject | ReferenceObject | undefined) => Boolean(header && 'required' in header && header.required);
  return Object.fromEntries(
    [...names].map((name) => {
      const header = (own?.[name] ?? shared?.[name]) as HeaderObject;
      return [name, { ...header, required: required(own?.[name]) && required(shared?.[name]) }];
    }),
  );
}
