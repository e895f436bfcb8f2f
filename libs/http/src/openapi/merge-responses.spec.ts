import { describe, expect, it } from 'vitest';
import { ProblemException } from '../problem';
import { addResponses, mergeResponse } from './merge-responses';
import { jsonResponse, problemResponse, RETRY_AFTER_HEADER } from './responses';
import { z } from 'zod';

const problem = (status: number, code: string) => ({ summary: code, problem: new ProblemException(status, code, `${code} detail`) });
const examplesOf = (response: ReturnType<typeof mergeResponse>) =>
  Object.keys((response.content?.['application/problem+json'] as { examples: object }).examples);

describe('mergeResponse', () => {
  it('keeps a status given once as it is', () => {
    const shared = problemResponse('Shared.', { a: problem(503, 'a') });
    expect(mergeResponse(undefined, shared)).toBe(shared);
  });

  it("joins two problem answers: every example (the operation's first), both descriptions, headers required only where both require them", () => {
    const own = problemResponse(
      'Own.',
      { own: problem(503, 'own'), same: problem(503, 'same') },
      {
        ...RETRY_AFTER_HEADER,
        'X-Own': { required: true, schema: { type: 'string' } },
      },
    );
    const shared = problemResponse('Shared.', { same: problem(503, 'other'), shared: problem(503, 'shared') }, RETRY_AFTER_HEADER);
    const merged = mergeResponse(own, shared);
    expect(examplesOf(merged)).toEqual(['own', 'same', 'shared']);
    expect(merged.description).toBe('Own.\n\nShared.');
    expect(merged.headers).toMatchObject({ 'Retry-After': { required: true }, 'X-Own': { required: false } });
    // The example of a name both give stays the operation's.
    expect(JSON.stringify(merged.content)).toContain('"code":"same"');
    expect(JSON.stringify(merged.content)).not.toContain('"code":"other"');
  });

  it("leaves the operation's answer when there is nothing to add or one of them is not a problem", () => {
    const own = problemResponse('Own.', { a: problem(503, 'a') });
    expect(mergeResponse(own, problemResponse('Shared.', { a: problem(503, 'a') }))).toBe(own);
    const json = jsonResponse('Done.', z.object({ ok: z.boolean() }), { ok: { summary: 'ok', value: { ok: true } } });
    expect(mergeResponse(json, problemResponse('Shared.', { a: problem(503, 'a') }))).toBe(json);
  });

  it('adds each shared status to an operation', () => {
    const responses = { 503: problemResponse('Own.', { own: problem(503, 'own') }) };
    addResponses(responses, {
      503: problemResponse('Shared.', { shared: problem(503, 'shared') }),
      408: problemResponse('Late.', { late: problem(408, 'late') }),
    });
    expect(Object.keys(responses).sort()).toEqual(['408', '503']);
    expect(examplesOf(responses[503])).toEqual(['own', 'shared']);
  });
});
