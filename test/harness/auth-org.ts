import type { DataSource } from 'typeorm';
import { INSECURE_TEST_PASSWORD_PARAMS } from '@meter/crypto';
import { authDataSource, createOrganization } from '@meter/auth';

export { authDataSource };

let counter = 0;

/** A fresh organization through the same use case as `cli org create`. */
export async function newOrg(dataSource: DataSource, options: { fastHash?: boolean } = {}) {
  counter += 1;
  const email = `admin${counter}-${Date.now()}@example.test`;
  const password = `correct horse ${counter}`;
  const created = await createOrganization(
    dataSource,
    { name: `Org ${counter}`, adminEmail: email, adminPassword: password },
    options.fastHash ? INSECURE_TEST_PASSWORD_PARAMS : undefined,
  );
  return { ...created, email, password };
}
