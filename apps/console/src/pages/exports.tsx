import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { ConfirmButton } from '../components/confirm-button';
import { Field, FormError } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { formatBytes, formatDateTime, localDate } from '../format';

interface Run {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  from: string;
  to: string;
  trigger: string;
  created_at: string;
  finished_at: string | null;
  files: { key: string; rows: number; bytes: number }[];
  error: { code: string; message: string } | null;
}
interface Integration {
  id: string;
  namespace: string;
  storage_type: string;
  destination: { bucket: string; prefix: string };
  format: string;
  time_zone: string;
  schedule: { at: string };
  status: 'active' | 'paused';
  created_at: string;
  last_run: Run | null;
}

const KEY = ['integrations'];

/** Batch exports: activate (the destination is checked), pause and resume, run days again, runs. */
export function ExportsPage() {
  const list = useQuery({
    queryKey: KEY,
    queryFn: () => api<{ integrations: Integration[] }>('GET', '/integrations'),
    // Follow last runs that are queued or running until they finish.
    refetchInterval: (query) =>
      query.state.data?.integrations.some((i) => i.last_run?.status === 'queued' || i.last_run?.status === 'running') ? 1000 : false,
  });
  const [activating, setActivating] = useState(false);
  return (
    <>
      <div className="heading">
        <h1>Exports</h1>
        {!activating && (
          <button type="button" className="primary" onClick={() => setActivating(true)}>
            Activate export
          </button>
        )}
      </div>
      <p className="lead">Each night, the previous day&apos;s consumption written to your own storage with a vault entry.</p>
      {activating && <ActivateForm onDone={() => setActivating(false)} />}
      {list.isPending ? (
        <Loading what="exports" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.integrations.length === 0 ? (
        <Empty>
          <p>No export yet. Add the storage&apos;s credentials in the Vault, then activate an export with its namespace.</p>
        </Empty>
      ) : (
        list.data.integrations.map((integration) => <IntegrationPanel key={integration.id} integration={integration} />)
      )}
    </>
  );
}

const CREATE_FIELDS = ['namespace', 'storage_type', 'destination.bucket', 'destination.prefix', 'format', 'time_zone', 'schedule.at'];

function ActivateForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    namespace: '',
    storage_type: 's3_identity',
    bucket: '',
    prefix: '',
    format: 'csv',
    time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    at: '02:00',
  });
  const set = (name: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [name]: e.target.value });
  const activate = useMutation({
    mutationFn: () =>
      api<Integration>('POST', '/integrations', {
        type: 'batch_export',
        namespace: form.namespace,
        storage_type: form.storage_type,
        destination: { bucket: form.bucket, prefix: form.prefix },
        format: form.format,
        time_zone: form.time_zone,
        schedule: { at: form.at },
      }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: KEY });
      onDone();
    },
  });
  const errors = activate.error instanceof ApiError ? fieldErrorsFor(activate.error.errors, CREATE_FIELDS) : {};
  const general =
    errors[''] ?? (activate.error && !(activate.error instanceof ApiError && activate.error.errors.length) ? describeError(activate.error) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    activate.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Activate export">
      <h2>Activate export</h2>
      <Field label="Vault namespace" error={errors.namespace}>
        {(props) => <input {...props} value={form.namespace} onChange={set('namespace')} autoFocus />}
      </Field>
      <Field label="Storage" error={errors.storage_type}>
        {(props) => (
          <select {...props} value={form.storage_type} onChange={set('storage_type')}>
            <option value="s3_identity">S3 (s3_identity)</option>
            <option value="azure_identity">Azure Blob (azure_identity)</option>
            <option value="gcs_identity">Google Cloud Storage (gcs_identity)</option>
          </select>
        )}
      </Field>
      <Field label="Bucket" error={errors['destination.bucket']}>
        {(props) => <input {...props} value={form.bucket} onChange={set('bucket')} />}
      </Field>
      <Field label="Prefix" error={errors['destination.prefix']} hint="Empty, or ending with /.">
        {(props) => <input {...props} value={form.prefix} onChange={set('prefix')} />}
      </Field>
      <Field label="Format" error={errors.format}>
        {(props) => (
          <select {...props} value={form.format} onChange={set('format')}>
            <option value="csv">CSV</option>
            <option value="ndjson">NDJSON</option>
            <option value="parquet">Parquet</option>
          </select>
        )}
      </Field>
      <Field label="Time zone" error={errors.time_zone} hint="IANA name whose local days are exported.">
        {(props) => <input {...props} value={form.time_zone} onChange={set('time_zone')} />}
      </Field>
      <Field label="Run at" error={errors['schedule.at']} hint="Local HH:MM each night.">
        {(props) => <input {...props} value={form.at} onChange={set('at')} />}
      </Field>
      <FormError message={general} />
      <div className="actions">
        <button type="submit" className="primary" disabled={activate.isPending}>
          {activate.isPending ? 'Checking the destination…' : 'Activate'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function IntegrationPanel({ integration }: { integration: Integration }) {
  const queryClient = useQueryClient();
  const runsKey = ['runs', integration.id];
  const runs = useQuery({
    queryKey: runsKey,
    queryFn: () => api<{ runs: Run[] }>('GET', `/integrations/${integration.id}/runs`),
    // Follow queued and running runs until they finish.
    refetchInterval: (query) => (query.state.data?.runs.some((r) => r.status === 'queued' || r.status === 'running') ? 1000 : false),
  });
  const yesterday = localDate(integration.time_zone, 1);
  const [from, setFrom] = useState(yesterday);
  const [to, setTo] = useState(yesterday);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: KEY });
    void queryClient.invalidateQueries({ queryKey: runsKey });
  };
  const setStatus = useMutation({
    mutationFn: (status: 'active' | 'paused') => api<Integration>('PATCH', `/integrations/${integration.id}`, { status }),
    onSettled: refresh,
  });
  const remove = useMutation({ mutationFn: () => api<void>('DELETE', `/integrations/${integration.id}`), onSettled: refresh });
  const run = useMutation({ mutationFn: () => api<Run>('POST', `/integrations/${integration.id}/runs`, { from, to }), onSuccess: refresh });
  const runErrors = run.error instanceof ApiError ? fieldErrorsFor(run.error.errors, ['from', 'to']) : {};
  const title = `${integration.namespace} → ${integration.destination.bucket}/${integration.destination.prefix}`;
  return (
    <section className="panel" aria-label={`Export ${title}`}>
      <div className="heading">
        <h2>{title}</h2>
        <span className={`badge ${integration.status}`}>{integration.status}</span>
      </div>
      <p className="meta">
        {integration.storage_type} · {integration.format} · {integration.time_zone} · nightly at {integration.schedule.at} · last run{' '}
        {integration.last_run ? `${integration.last_run.status} (${integration.last_run.from} to ${integration.last_run.to})` : 'none yet'}
      </p>
      <div className="actions">
        {integration.status === 'active' ? (
          <button type="button" onClick={() => setStatus.mutate('paused')} disabled={setStatus.isPending}>
            Pause
          </button>
        ) : (
          <button type="button" onClick={() => setStatus.mutate('active')} disabled={setStatus.isPending}>
            Resume
          </button>
        )}
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete export ${title}`}
          question={<>Delete this export? Files already written stay in your storage.</>}
          confirmLabel="Delete export"
          onConfirm={() => remove.mutate()}
        />
      </div>
      {(setStatus.error || remove.error) && <ErrorMessage error={setStatus.error ?? remove.error} />}
      <form
        className="inline run-form"
        aria-label="Run again"
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <Field label="From" error={runErrors.from}>
          {(props) => <input {...props} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />}
        </Field>
        <Field label="To" error={runErrors.to}>
          {(props) => <input {...props} type="date" value={to} onChange={(e) => setTo(e.target.value)} />}
        </Field>
        <button type="submit" disabled={run.isPending}>
          Run again
        </button>
      </form>
      {run.error && !(run.error instanceof ApiError && run.error.errors.length) && <ErrorMessage error={run.error} />}
      {runErrors[''] && <FormError message={runErrors['']} />}
      <h3>Runs</h3>
      {runs.isPending ? (
        <Loading what="runs" />
      ) : runs.isError ? (
        <ErrorMessage error={runs.error} retry={() => void runs.refetch()} />
      ) : runs.data.runs.length === 0 ? (
        <Empty>
          <p>No run yet: the first runs tonight at {integration.schedule.at}, or use Run again for past days.</p>
        </Empty>
      ) : (
        <TableWrap>
          <table>
            <caption className="visually-hidden">Runs of {title}</caption>
            <thead>
              <tr>
                <th scope="col">Days</th>
                <th scope="col">Status</th>
                <th scope="col">Trigger</th>
                <th scope="col">Queued</th>
                <th scope="col">Finished</th>
                <th scope="col">Files</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.runs.map((r) => (
                <tr key={r.id}>
                  <th scope="row">{r.from === r.to ? r.from : `${r.from} to ${r.to}`}</th>
                  <td>
                    <span className={`badge ${r.status}`}>{r.status}</span>
                  </td>
                  <td>{r.trigger}</td>
                  <td>{formatDateTime(r.created_at)}</td>
                  <td>{formatDateTime(r.finished_at)}</td>
                  <td>
                    {r.files.length === 0
                      ? '—'
                      : r.files.map((f) => (
                          <div key={f.key}>
                            <code>{f.key}</code> ({f.rows} rows, {formatBytes(f.bytes)})
                          </div>
                        ))}
                  </td>
                  <td>{r.error ? `${r.error.code}: ${r.error.message}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
