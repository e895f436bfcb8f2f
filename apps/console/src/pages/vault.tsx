import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { ConfirmButton } from '../components/confirm-button';
import { Field, FormError } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { formatDateTime } from '../format';
import { FIELD_LABELS, NON_SECRET_FIELDS, VAULT_TYPES, type VaultType } from '../vault-types';

interface VaultEntry {
  id: string;
  namespace: string;
  type: VaultType;
  created_at: string;
  updated_at: string;
  version: number;
  fields: Record<string, string>;
}

const KEY = ['vault'];

/** Sealed storage credentials: secrets listed masked, add or replace per (namespace, type), delete. */
export function VaultPage() {
  const list = useQuery({ queryKey: KEY, queryFn: () => api<{ entries: VaultEntry[] }>('GET', '/organization-vault') });
  const [form, setForm] = useState<{ namespace: string; type: VaultType } | null>(null);
  return (
    <>
      <div className="heading">
        <h1>Vault</h1>
        {!form && (
          <button type="button" className="primary" onClick={() => setForm({ namespace: '', type: 's3_identity' })}>
            Add entry
          </button>
        )}
      </div>
      <p className="lead">Storage credentials exports write with. Secrets are sealed and never shown again, only their last characters.</p>
      {form && <VaultEntryForm initial={form} onDone={() => setForm(null)} />}
      {list.isPending ? (
        <Loading what="vault entries" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.entries.length === 0 ? (
        <Empty>
          <p>The vault is empty. Add the storage credentials an export should write with (for example an S3 access key).</p>
        </Empty>
      ) : (
        <TableWrap>
          <table>
            <caption className="visually-hidden">Vault entries</caption>
            <thead>
              <tr>
                <th scope="col">Namespace</th>
                <th scope="col">Type</th>
                <th scope="col">Fields</th>
                <th scope="col">Version</th>
                <th scope="col">Updated</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.entries.map((entry) => (
                <VaultRow key={entry.id} entry={entry} onReplace={() => setForm({ namespace: entry.namespace, type: entry.type })} />
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </>
  );
}

function VaultRow({ entry, onReplace }: { entry: VaultEntry; onReplace: () => void }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => api<void>('DELETE', `/organization-vault/${entry.id}`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const name = `${entry.namespace} ${entry.type}`;
  return (
    <tr>
      <th scope="row">{entry.namespace}</th>
      <td>{entry.type}</td>
      <td>
        <dl className="fields">
          {Object.entries(entry.fields).map(([field, value]) => (
            <div key={field}>
              <dt>{FIELD_LABELS[field] ?? field}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
        </dl>
      </td>
      <td>{entry.version}</td>
      <td>{formatDateTime(entry.updated_at)}</td>
      <td className="row-actions">
        <button type="button" aria-label={`Replace ${name}`} onClick={onReplace}>
          Replace
        </button>
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${name}`}
          question={
            <>
              Delete the <strong>{entry.type}</strong> entry of <strong>{entry.namespace}</strong>? Its sealed data is destroyed; exports that use it will fail.
            </>
          }
          confirmLabel="Delete entry"
          onConfirm={() => remove.mutate()}
          disabled={remove.isPending}
        />
        {remove.isError && <small className="field-error">{describeError(remove.error)}</small>}
      </td>
    </tr>
  );
}

function VaultEntryForm({ initial, onDone }: { initial: { namespace: string; type: VaultType }; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [namespace, setNamespace] = useState(initial.namespace);
  const [type, setType] = useState<VaultType>(initial.type);
  const [data, setData] = useState<Record<string, string>>({});
  const fields = VAULT_TYPES[type];
  const save = useMutation({
    mutationFn: () => api<{ id: string }>('PATCH', '/organization-vault', { namespace, type, data: Object.fromEntries(fields.map((f) => [f, data[f] ?? ''])) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: KEY });
      onDone();
    },
  });
  const errors = save.error instanceof ApiError ? fieldErrorsFor(save.error.errors, ['namespace', 'type', ...fields], 'data.') : {};
  const general = errors[''] ?? (save.error && !(save.error instanceof ApiError && save.error.errors.length) ? describeError(save.error) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Vault entry">
      <h2>{initial.namespace ? 'Replace entry' : 'Add entry'}</h2>
      <Field label="Namespace" error={errors.namespace} hint="The name an export is activated with, e.g. billing.">
        {(props) => <input {...props} value={namespace} onChange={(e) => setNamespace(e.target.value)} autoFocus={!initial.namespace} />}
      </Field>
      <Field label="Type" error={errors.type}>
        {(props) => (
          <select {...props} value={type} onChange={(e) => setType(e.target.value as VaultType)}>
            {Object.keys(VAULT_TYPES).map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        )}
      </Field>
      {fields.map((field) => (
        <Field key={`${type}-${field}`} label={FIELD_LABELS[field] ?? field} error={errors[field]}>
          {(props) =>
            field === 'credentials_json' ? (
              <textarea {...props} rows={4} spellCheck={false} value={data[field] ?? ''} onChange={(e) => setData({ ...data, [field]: e.target.value })} />
            ) : (
              <input
                {...props}
                type={NON_SECRET_FIELDS.includes(field) ? 'text' : 'password'}
                autoComplete="off"
                spellCheck={false}
                value={data[field] ?? ''}
                onChange={(e) => setData({ ...data, [field]: e.target.value })}
              />
            )
          }
        </Field>
      ))}
      <FormError message={general} />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save entry
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
