import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildInfo } from './build-info';

describe('buildInfo', () => {
  it("names the platform's version and the commit checked out", () => {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(buildInfo()).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: head.slice(0, 12) });
  });

  it('says unknown outside the repository', () => {
    expect(buildInfo('/')).toEqual({ version: 'unknown', commit: 'unknown' });
  });
});
