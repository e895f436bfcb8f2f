/** The vault's entry types and their data fields (libs/contracts VAULT_ENTRY_FIELDS; a unit test keeps them equal). */
export const VAULT_TYPES = {
  s3_identity: ['access_key', 'secret_key', 'end_point', 'region'],
  azure_identity: ['tenant_id', 'client_id', 'client_secret', 'connection_string'],
  gcs_identity: ['credentials_json', 'project_id'],
  api_token_identity: ['token'],
} as const;

export type VaultType = keyof typeof VAULT_TYPES;

/** Fields listed in clear; every other one is a secret, typed into a password box and listed masked. */
export const NON_SECRET_FIELDS: readonly string[] = ['end_point', 'region', 'tenant_id', 'client_id', 'project_id'];

/** Labels people read for the API's field names. */
export const FIELD_LABELS: Record<string, string> = {
  access_key: 'Access key',
  secret_key: 'Secret key',
  end_point: 'Endpoint URL',
  region: 'Region',
  tenant_id: 'Tenant ID',
  client_id: 'Client ID',
  client_secret: 'Client secret',
  connection_string: 'Connection string',
  credentials_json: 'Service account JSON',
  project_id: 'Project ID',
  token: 'Token',
};
