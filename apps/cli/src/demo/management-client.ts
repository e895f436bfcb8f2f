/** The management routes the demo needs (docs/management-api.md), over fetch. */
export interface ApiCredential {
  id: string;
  access_key: string;
  secret_key: string;
  scopes: string[];
}

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (response.status === 429) {
    throw new Error(`${what}: HTTP 429, too many failed logins from this address; try again in ${response.headers.get('retry-after') ?? 'a few'} s`);
  }
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

export async function login(managementUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(new URL('/login', managementUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (await json<{ access_token: string }>(response, 'POST /login')).access_token;
}

export async function createCredential(managementUrl: string, token: string, name: string): Promise<ApiCredential> {
  const response = await fetch(new URL('/org-api-credentials', managementUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ name, type: 'secret', scopes: ['meter:consumption:read'] }),
  });
  return json<ApiCredential>(response, 'POST /org-api-credentials');
}

/** POST /webhook-endpoints: the endpoint and its secret, shown once. */
export async function createWebhookEndpoint(managementUrl: string, token: string, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const response = await fetch(new URL('/webhook-endpoints', managementUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ url, events }),
  });
  return json<{ id: string; secret: string }>(response, 'POST /webhook-endpoints');
}

/** DELETE /webhook-endpoints/{id}: the endpoint and its pending deliveries go. */
export async function deleteWebhookEndpoint(managementUrl: string, token: string, id: string): Promise<void> {
  const response = await fetch(new URL(`/webhook-endpoints/${encodeURIComponent(id)}`, managementUrl), {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 204) throw new Error(`DELETE /webhook-endpoints/${id}: HTTP ${response.status} ${(await response.text()).slice(0, 300)}`);
}
