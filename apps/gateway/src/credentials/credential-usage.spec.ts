import { describe, expect, it } from 'vitest';
import { credentialUsageReport } from '@meter/contracts';
import { usageReports } from './credential-usage';

describe('usageReports', () => {
  it('one item per credential with its latest time, in reports the schema accepts, chunked', () => {
    const used = new Map(Array.from({ length: 5 }, (_, i) => [`cred_${i}`, { orgId: `org_${i % 2}`, at: Date.UTC(2026, 10, 21, 10, i) }]));
    const reports = usageReports(used, 2);
    expect(reports.map((r) => r.usage.length)).toEqual([2, 2, 1]);
    expect(reports[2].usage[0]).toEqual({ credential_id: 'cred_4', org_id: 'org_0', last_used_at: '2026-11-21T10:04:00.000Z' });
    for (const report of reports) expect(credentialUsageReport.parse(report)).toEqual(report);
  });

  it('nothing used, nothing sent', () => {
    expect(usageReports(new Map())).toEqual([]);
  });
});
