import { describe, expect, it } from 'vitest';
import { ProblemException } from './problem';
import { toProblem } from './problem.filter';
import { UnavailableDependencies } from './unavailable-dependencies';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function withDatabase(): UnavailableDependencies {
  const dependencies = new UnavailableDependencies();
  dependencies.register({
    code: 'database_unavailable',
    detail: 'the database is unavailable',
    retryAfterSeconds: 2,
    matches: (error) => error === refused,
  });
  return dependencies;
}

describe('toProblem', () => {
  it("answers an error a dependency recognises as its outage with 503, its code and Retry-After, never the error's text", () => {
    const answer = toProblem(refused, 'req-1', withDatabase());
    expect(answer.headers).toEqual({ 'retry-after': '2' });
    expect(answer.unavailable?.code).toBe('database_unavailable');
    expect(answer.problem).toEqual({
      type: '/docs/errors#database_unavailable',
      title: 'Service Unavailable',
      status: 503,
      detail: 'the database is unavailable',
      code: 'database_unavailable',
      request_id: 'req-1',
      retry_after: 2,
    });
  });

  it('keeps 500 internal_error for anything else, and without registered dependencies', () => {
    for (const answer of [toProblem(new Error('bug'), 'req-2', withDatabase()), toProblem(refused, 'req-3')]) {
      expect(answer.problem).toMatchObject({ status: 500, code: 'internal_error' });
      expect(answer.headers).toEqual({});
      expect(answer.unavailable).toBeUndefined();
    }
  });

  it('leaves problems thrown on purpose as they are', () => {
    const answer = toProblem(new ProblemException(404, 'not_found', 'no such device'), 'req-4', withDatabase());
    expect(answer.problem).toMatchObject({ status: 404, code: 'not_found', detail: 'no such device' });
  });
});
