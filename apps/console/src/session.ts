import { api, setCsrfToken } from './api/client';
import { ApiError } from './api/problem';

export interface ConsoleSession {
  email: string;
  org_id: string;
  csrf_token: string;
}

/** The live session behind the cookie, or null when there is none (401). */
export async function currentSession(): Promise<ConsoleSession | null> {
  try {
    const session = await api<ConsoleSession>('GET', '/session');
    setCsrfToken(session.csrf_token);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export async function signIn(email: string, password: string): Promise<ConsoleSession> {
  const session = await api<ConsoleSession>('POST', '/session', { email, password });
  setCsrfToken(session.csrf_token);
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await api<void>('DELETE', '/session');
  } finally {
    setCsrfToken('');
  }
}
