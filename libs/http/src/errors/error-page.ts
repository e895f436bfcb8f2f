import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { documentedErrorCodes } from './documented-codes';
import { ERROR_CODES, type ErrorCode } from './error-codes';
import { ERROR_PAGE_PATH } from './problem-type';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Escaped text with its `code spans` as <code>. */
const inline = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

interface Row {
  code: string;
  statuses: number[];
  entry?: ErrorCode;
}

/** The codes of the page: every code the document shows, and those any request may get; by status, then code. */
function rowsOf(document: OpenAPIObject): Row[] {
  const documented = documentedErrorCodes(document);
  const rows: Row[] = [...documented].map(([code, statuses]) => ({ code, statuses: [...statuses].sort(), entry: ERROR_CODES[code] }));
  for (const [code, entry] of Object.entries(ERROR_CODES)) {
    if (entry.anyRequest && !documented.has(code)) rows.push({ code, statuses: [], entry });
  }
  const first = (row: Row) => row.statuses[0] ?? Number.MAX_SAFE_INTEGER;
  return rows.sort((a, b) => first(a) - first(b) || a.code.localeCompare(b.code));
}

/**
 * The error page of one API (served at /docs/errors beside its document):
 * each code its answers can carry, with the statuses it comes with, what it
 * means and what to do about it; each row's id is the code, the fragment of
 * a problem's `type`.
 */
export function errorPageHtml(document: OpenAPIObject): string {
  const title = `${document.info.title}: error codes`;
  const rows = rowsOf(document)
    .map(({ code, statuses, entry }) =>
      [
        `<tr id="${escape(code)}">`,
        `<td><a href="#${escape(code)}"><code>${escape(code)}</code></a></td>`,
        `<td>${statuses.join(', ') || 'any'}</td>`,
        `<td>${inline(entry?.meaning ?? 'See the `detail` of the answer.')}</td>`,
        `<td>${inline(entry?.action ?? 'Quote the `request_id` of the answer when reporting it.')}</td>`,
        '</tr>',
      ].join(''),
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1b1f24; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .5rem .75rem; border-bottom: 1px solid #d0d7de; }
tr:target { background: #fff8c5; }
code { font: 13px ui-monospace, monospace; }
</style>
</head>
<body>
<h1>${escape(title)}</h1>
<p>Every error is <code>application/problem+json</code> (RFC 9457): <code>type</code>, <code>title</code>, <code>status</code>,
<code>detail</code>, a stable <code>code</code> and the <code>request_id</code> to quote when reporting it. Match on <code>code</code>;
<code>type</code> is this page's address with the code as its fragment (<code>${ERROR_PAGE_PATH}#&lt;code&gt;</code>, relative to the API's URL).
Each operation of the <a href="/docs">API document</a> (<a href="/docs/openapi.json">JSON</a>) lists the codes it can answer, with an example of each.</p>
<table>
<thead><tr><th>code</th><th>status</th><th>what it means</th><th>what to do</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
