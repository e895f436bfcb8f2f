/** Where each public API serves its error page (beside its document at /docs). */
export const ERROR_PAGE_PATH = '/docs/errors';

/**
 * A problem's `type`: a reference to its code on the error page of the API that answered, resolved
 * against the request's URL as RFC 9457 (3.1.1) says, so it names the same problem on every host
 * (`{base_url}/docs/errors#invalid_signature`, `{management_url}/docs/errors#invalid_session`).
 */
export const problemType = (code: string): string => `${ERROR_PAGE_PATH}#${code}`;

/** The sentence each API's description gives about its error page (a link Swagger UI resolves beside /docs). */
export const ERROR_PAGE_SENTENCE =
  `Each problem's \`type\` is \`${ERROR_PAGE_PATH}#<code>\`, relative to the API's URL: [${ERROR_PAGE_PATH}](${ERROR_PAGE_PATH}) lists every code ` +
  'with what it means and what to do about it.';
