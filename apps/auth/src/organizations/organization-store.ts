import type { EntityManager } from 'typeorm';

/** The scopes the organization's credentials may be given (`auth.organizations`). */
export async function organizationScopes(db: Pick<EntityManager, 'query'>, orgId: string): Promise<string[]> {
  const [org] = (await db.query('SELECT scopes FROM auth.organizations WHERE id = $1', [orgId])) as { scopes: string[] }[];
  return org?.scopes ?? [];
}
