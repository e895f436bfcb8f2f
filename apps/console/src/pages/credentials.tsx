import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { ConfirmButton } from '../components/confirm-button';
import { Field, FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { isUnlimitedPublicKey } from '../credential-limits';
import { formatDateTime, formatList, parseCidrList } from '../format';

interface Credential {
  id: string;
  name: string;
  type: 'secret' | 'public';
  access_key: string;
  scopes: string[];
  allowed_cidrs: string[];
  allowed_origins?: string[];
  device_ids?: number[] | null;
  status: 'active' | 'revoked';
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}
interface CreatedCredential {
  id: string;
  access_key: string;
  secret_key: string | null;
}

const KEY = ['credentials'];

/** API credentials: list, create (secret shown once), allowed CIDRs edited in place, revoke. */
export function CredentialsPage() {
  const list = useQuery({ queryKey: KEY, queryFn: () => api<{ credentials: Credential[] }>('GET', '/org-api-credentials') });
  const [created, setCreated] = useState<CreatedCredential | null>(null);
  const [creating, setCreating] = useState(false);

  return (
    <>
      <div className="heading">
        <h1>Credentials</h1>
        {!creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Create credential
          </button>
        )}
      </div>
      <p className="lead">API credentials sign requests to the consumption API. Revoked ones are refused within a second.</p>
      {created && (
        <div className="panel">
          <p>
            Access key <code>{created.access_key}</code>
          </p>
          {created.secret_key ? (
            <SecretOnce label="Secret key" value={created.secret_key} onDone={() => setCreated(null)} />
          ) : (
            <button type="button" onClick={() => setCreated(null)}>
              Done
            </button>
          )}
        </div>
      )}
      {creating && (
        <CreateCredentialForm
          onCancel={() => setCreating(false)}
          onCreated={(credential) => {
            setCreating(false);
            setCreated(credential);
          }}
        />
      )}
      {list.isPending ? (
        <Loading what="credentials" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.credentials.length === 0 ? (
        <Empty>
          <p>No credentials yet. Create one to let an application call the consumption API.</p>
        </Empty>
      ) : (
        <TableWrap>
          <table>
            <caption className="visually-hidden">API credentials</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Access key</th>
                <th scope="col">Type</th>
                <th scope="col">Scopes</th>
                <th scope="col">Allowed CIDRs</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {[...list.data.credentials].reverse().map((credential) => (
                <CredentialRow key={credential.id} credential={credential} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}

function CreateCredentialForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (created: CreatedCredential) => void }) {
  const queryClient = useQueryClient();
  const scopes = useQuery({ queryKey: ['scopes'], queryFn: () => api<{ scopes: string[] }>('GET', '/org-api-credentials/available-scopes') });
  const [name, setName] = useState('');
  const [type, setType] = useState<'secret' | 'public'>('secret');
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = chosen ?? scopes.data?.scopes ?? [];
  const create = useMutation({
    mutationFn: () => api<CreatedCredential>('POST', '/org-api-credentials', { name, type, scopes: selected }),
    onSuccess: (credential) => {
      void queryClient.invalidateQueries({ queryKey: KEY });
      onCreated(credential);
    },
  });
  const errors = create.error instanceof ApiError ? fieldErrorsFor(create.error.errors, ['name', 'type', 'scopes']) : {};
  const general = errors[''] ?? (create.error && !(create.error instanceof ApiError && create.error.errors.length) ? describeError(create.error) : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Create credential">
      <h2>Create credential</h2>
      <Field label="Name" error={errors.name} hint="Who or what uses it, e.g. Billing export.">
        {(props) => <input {...props} value={name} onChange={(e) => setName(e.target.value)} autoFocus />}
      </Field>
      <Field label="Type" error={errors.type} hint="Secret credentials sign with HMAC; public ones only identify the caller.">
        {(props) => (
          <select {...props} value={type} onChange={(e) => setType(e.target.value as 'secret' | 'public')}>
            <option value="secret">secret</option>
            <option value="public">public</option>
          </select>
        )}
      </Field>
      <fieldset className={errors.scopes ? 'field invalid' : 'field'}>
        <legend>Scopes</legend>
        {scopes.isPending && <Loading what="scopes" />}
        {scopes.isError && <ErrorMessage error={scopes.error} />}
        {scopes.data?.scopes.map((scope) => (
          <label key={scope} className="check">
            <input
              type="checkbox"
              checked={selected.includes(scope)}
              onChange={(e) => setChosen(e.target.checked ? [...selected, scope] : selected.filter((s) => s !== scope))}
            />
            {scope}
          </label>
        ))}
        {errors.scopes && <small className="field-error">{errors.scopes}</small>}
      </fieldset>
      <FormError message={general} />
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          Create
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CredentialRow({ credential }: { credential: Credential }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [cidrs, setCidrs] = useState('');
  const revoke = useMutation({
    mutationFn: () => api<void>('DELETE', `/org-api-credentials/${credential.id}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const save = useMutation({
    mutationFn: () => api<Credential>('PATCH', `/org-api-credentials/${credential.id}`, { allowed_cidrs: parseCidrList(cidrs) }),
    onSuccess: () => {
      setEditing(false);
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
  });
  const cidrError = save.error
    ? save.error instanceof ApiError && save.error.errors.length
      ? Object.values(fieldErrorsFor(save.error.errors, ['allowed_cidrs'])).join('; ')
      : describeError(save.error)
    : undefined;
  const active = credential.status === 'active';
  return (
    <tr>
      <th scope="row">{credential.name}</th>
      <td>
        <code>{credential.access_key}</code>
      </td>
      <td>
        {credential.type}
        {active && isUnlimitedPublicKey(credential) && (
          <p className="notice" role="note">
            Unlimited: whoever copies this public key reads every device. Give it allowed origins, devices or CIDRs.
          </p>
        )}
      </td>
      <td>{formatList(credential.scopes)}</td>
      <td>
        {editing ? (
          <form
            className="inline"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate();
            }}
          >
            <Field label={`Allowed CIDRs of ${credential.name}`} error={cidrError} hint="Comma-separated; empty allows any address.">
              {(props) => <input {...props} value={cidrs} onChange={(e) => setCidrs(e.target.value)} autoFocus />}
            </Field>
            <button type="submit" disabled={save.isPending}>
              Save
            </button>
            <button
              type="button"
              onClick={() => {
                setEditing(false);
                save.reset();
              }}
            >
              Cancel
            </button>
          </form>
        ) : (
          <>
            {formatList(credential.allowed_cidrs, 'any address')}{' '}
            {active && (
              <button
                type="button"
                className="link"
                aria-label={`Edit allowed CIDRs of ${credential.name}`}
                onClick={() => {
                  setCidrs(credential.allowed_cidrs.join(', '));
                  setEditing(true);
                }}
              >
                Edit
              </button>
            )}
          </>
        )}
      </td>
      <td>
        <span className={`badge ${credential.status}`}>{credential.status}</span>
      </td>
      <td>{formatDateTime(credential.created_at)}</td>
      <td>{credential.last_used_at ? formatDateTime(credential.last_used_at) : 'never'}</td>
      <td>
        {active && (
          <ConfirmButton
            label="Revoke"
            ariaLabel={`Revoke ${credential.name}`}
            question={
              <>
                Revoke <strong>{credential.name}</strong> ({credential.access_key})? Requests signed with it are refused within a second. This cannot be undone.
              </>
            }
            confirmLabel="Revoke credential"
            onConfirm={() => revoke.mutate()}
            disabled={revoke.isPending}
          />
        )}
        {revoke.isError && <small className="field-error">{describeError(revoke.error)}</small>}
      </td>
    </tr>
  );
}
