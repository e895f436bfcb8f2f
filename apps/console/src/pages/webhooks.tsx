import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { ConfirmButton } from '../components/confirm-button';
import { Field, FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { formatDateTime, formatList, prettyJson } from '../format';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: string;
}
interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  last_attempt_at: string | null;
  /** The exact body sent (every attempt sends the same). */
  payload: string;
  /** The first KiB of the last answer; null before the first attempt. */
  response_body: string | null;
}

/** The events an endpoint may receive (libs/contracts OUTBOUND_EVENT_TYPES). */
export const EVENT_TYPES = ['alert.raised', 'alert.cleared', 'export.succeeded', 'export.failed'] as const;

const KEY = ['webhook-endpoints'];

/** Webhook endpoints: add (secret shown once), enable/disable, rotate, delete, deliveries and retry. */
export function WebhooksPage() {
  const list = useQuery({ queryKey: KEY, queryFn: () => api<{ endpoints: Endpoint[] }>('GET', '/webhook-endpoints') });
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <>
      <div className="heading">
        <h1>Webhooks</h1>
        {!adding && (
          <button type="button" className="primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </div>
      <p className="lead">Alert and export events, POSTed to your endpoints and signed per Standard Webhooks.</p>
      {secret && (
        <div className="panel">
          <SecretOnce label="Signing secret" value={secret} onDone={() => setSecret(null)} />
        </div>
      )}
      {adding && (
        <AddEndpointForm
          onDone={(created) => {
            setAdding(false);
            if (created) setSecret(created);
          }}
        />
      )}
      {list.isPending ? (
        <Loading what="webhook endpoints" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.endpoints.length === 0 ? (
        <Empty>
          <p>No endpoint yet. Add the URL that should receive alert and export events.</p>
        </Empty>
      ) : (
        list.data.endpoints.map((endpoint) => <EndpointPanel key={endpoint.id} endpoint={endpoint} onSecret={setSecret} />)
      )}
    </>
  );
}

function AddEndpointForm({ onDone }: { onDone: (secret?: string) => void }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENT_TYPES]);
  const add = useMutation({
    mutationFn: () => api<Endpoint & { secret: string }>('POST', '/webhook-endpoints', { url, events, ...(description ? { description } : {}) }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: KEY });
      onDone(created.secret);
    },
  });
  const errors = add.error instanceof ApiError ? fieldErrorsFor(add.error.errors, ['url', 'events', 'description']) : {};
  const general = errors[''] ?? (add.error && !(add.error instanceof ApiError && add.error.errors.length) ? describeError(add.error) : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  return (
    <form className="panel" onSubmit={submit} noValidate aria-label="Add endpoint">
      <h2>Add endpoint</h2>
      <Field label="URL" error={errors.url} hint="https://, where your receiver verifies the signature.">
        {(props) => <input {...props} type="url" value={url} onChange={(e) => setUrl(e.target.value)} autoFocus />}
      </Field>
      <fieldset className={errors.events ? 'field invalid' : 'field'}>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={events.includes(type)}
              onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
            />
            {type}
          </label>
        ))}
        {errors.events && <small className="field-error">{errors.events}</small>}
      </fieldset>
      <Field label="Description" error={errors.description}>
        {(props) => <input {...props} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <FormError message={general} />
      <div className="actions">
        <button type="submit" className="primary" disabled={add.isPending}>
          Add
        </button>
        <button type="button" onClick={() => onDone()}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function EndpointPanel({ endpoint, onSecret }: { endpoint: Endpoint; onSecret: (secret: string) => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: KEY });
  const toggle = useMutation({
    mutationFn: () => api<Endpoint>('PATCH', `/webhook-endpoints/${endpoint.id}`, { status: endpoint.status === 'enabled' ? 'disabled' : 'enabled' }),
    onSettled: refresh,
  });
  const rotate = useMutation({
    mutationFn: () => api<{ secret: string }>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`),
    onSuccess: (rotated) => onSecret(rotated.secret),
  });
  const remove = useMutation({ mutationFn: () => api<void>('DELETE', `/webhook-endpoints/${endpoint.id}`), onSettled: refresh });
  const test = useMutation({
    mutationFn: () => api<Delivery>('POST', `/webhook-endpoints/${endpoint.id}/test`),
    onSuccess: () => {
      setOpen(true);
      void queryClient.invalidateQueries({ queryKey: ['deliveries', endpoint.id] });
    },
  });
  const failure = toggle.error ?? rotate.error ?? remove.error ?? test.error;
  return (
    <section className="panel" aria-label={`Endpoint ${endpoint.url}`}>
      <div className="heading">
        <h2 className="url">{endpoint.url}</h2>
        <span className={`badge ${endpoint.status}`}>{endpoint.status}</span>
      </div>
      <p className="meta">
        {formatList(endpoint.events)} · added {formatDateTime(endpoint.created_at)}
        {endpoint.description ? ` · ${endpoint.description}` : ''}
        {endpoint.disabled_reason ? ` · ${endpoint.disabled_reason}` : ''}
      </p>
      <div className="actions">
        <button type="button" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {endpoint.status === 'enabled' ? 'Disable' : 'Enable'}
        </button>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending || endpoint.status !== 'enabled'}>
          Send test event
        </button>
        <ConfirmButton
          label="Rotate secret"
          ariaLabel={`Rotate the secret of ${endpoint.url}`}
          question={<>Make a new signing secret? For 24 hours deliveries are signed with both, so the receiver can switch.</>}
          confirmLabel="Rotate"
          onConfirm={() => rotate.mutate()}
        />
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete endpoint ${endpoint.url}`}
          question={<>Delete this endpoint? Its pending deliveries are dropped.</>}
          confirmLabel="Delete endpoint"
          onConfirm={() => remove.mutate()}
        />
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
      </div>
      {test.isSuccess && (
        <p className="state" role="status">
          A webhook.test event is on its way to this endpoint alone.
        </p>
      )}
      {failure && <ErrorMessage error={failure} />}
      {open && <Deliveries endpointId={endpoint.id} />}
    </section>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const queryClient = useQueryClient();
  const key = ['deliveries', endpointId];
  const list = useQuery({
    queryKey: key,
    queryFn: () => api<{ deliveries: Delivery[] }>('GET', `/webhook-endpoints/${endpointId}/deliveries`),
    // While a delivery is pending its status changes on its own: look again every few seconds.
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const retry = useMutation({
    mutationFn: (id: string) => api<Delivery>('POST', `/webhook-endpoints/${endpointId}/deliveries/${id}/retry`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  if (list.isPending) return <Loading what="deliveries" />;
  if (list.isError) return <ErrorMessage error={list.error} retry={() => void list.refetch()} />;
  if (list.data.deliveries.length === 0)
    return (
      <Empty>
        <p>No delivery yet: events are sent here when alerts are raised or cleared and when exports finish. Send a test event to try the endpoint.</p>
      </Empty>
    );
  return (
    <TableWrap>
      <table>
        <caption className="visually-hidden">Deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last status code</th>
            <th scope="col">Created</th>
            <th scope="col">Last attempt</th>
            <th scope="col">Payload sent</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data.deliveries.map((d) => (
            <tr key={d.id}>
              <th scope="row">{d.type}</th>
              <td>
                <span className={`badge ${d.status}`}>{d.status}</span>
              </td>
              <td>{d.attempts}</td>
              <td>{d.last_status_code ?? d.last_error ?? '—'}</td>
              <td>{formatDateTime(d.created_at)}</td>
              <td>{formatDateTime(d.last_attempt_at)}</td>
              <td className="payload">
                <details>
                  <summary>Payload</summary>
                  <pre aria-label={`Payload of delivery ${d.id}`}>{prettyJson(d.payload)}</pre>
                  {d.response_body !== null && (
                    <>
                      <p className="meta">Answer (first KiB)</p>
                      <pre aria-label={`Answer to delivery ${d.id}`}>{d.response_body || '(empty)'}</pre>
                    </>
                  )}
                </details>
              </td>
              <td>
                {d.status !== 'delivered' && (
                  <button type="button" onClick={() => retry.mutate(d.id)} disabled={retry.isPending} aria-label={`Retry delivery ${d.id}`}>
                    Retry
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
