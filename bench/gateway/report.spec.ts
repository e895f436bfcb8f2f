import { describe, expect, it } from 'vitest';
import { RESULTS_END, RESULTS_START, withGatewayResults } from './report';

const doc = (gateway: string) => `# Benchmarks\n\nintro\n\n## Gateway\n\n${gateway}\n## Ingest\n\ningest text\n`;

describe('withGatewayResults', () => {
  it('replaces only what lies between the markers', () => {
    const text = doc(`before\n\n${RESULTS_START}\n\nold numbers\n\n${RESULTS_END}\n\n### Where the time goes\n\nanalysis\n`);
    const out = withGatewayResults(text, 'new numbers');
    expect(out).toBe(doc(`before\n\n${RESULTS_START}\n\nnew numbers\n\n${RESULTS_END}\n\n### Where the time goes\n\nanalysis\n`));
    expect(withGatewayResults(out, 'new numbers')).toBe(out);
  });

  it('without markers, replaces the section up to its first subsection and keeps the analysis', () => {
    const out = withGatewayResults(doc('old table\n\n### Where the time goes\n\nanalysis\n'), 'new numbers');
    expect(out).toBe(doc(`${RESULTS_START}\n\nnew numbers\n\n${RESULTS_END}\n\n### Where the time goes\n\nanalysis\n`));
  });

  it('without a subsection, replaces the section up to the next one', () => {
    expect(withGatewayResults(doc('old table\n'), 'n')).toBe(doc(`${RESULTS_START}\n\nn\n\n${RESULTS_END}\n`));
  });

  it('adds the section when the document has none', () => {
    expect(withGatewayResults('# Benchmarks\n', 'n')).toBe(`# Benchmarks\n\n## Gateway\n\n${RESULTS_START}\n\nn\n\n${RESULTS_END}\n`);
  });
});
