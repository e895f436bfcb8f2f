import { ApiError, problemFrom } from './problem';

// The CSRF token lives in memory only (contract section 11): never in storage, never in a URL.
let csrfToken = '';
let onUnauthorized: () => void = () => undefined;

export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when a call meets an ended or expired session (401): the console returns to its sign-in page. */
export function whenUnauthorized(callback: () => void): void {
  onUnauthorized = callback;
}

/**
 * One call of the management API on this origin, authenticated by the session cookie; state-changing
 * calls carry the CSRF token. A problem answer throws an ApiError; so does a network failure (status 0).
 */
export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json, application/problem+json', ...extraHeaders };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch (error) {
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'no answer');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  if (!response.ok) {
    const error = problemFrom(response.status, parsed, response.headers.get('retry-after'));
    if (response.status === 401 && path !== '/session') onUnauthorized();
    throw error;
  }
  return parsed as T;
}
