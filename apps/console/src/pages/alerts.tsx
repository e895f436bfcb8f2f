import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client';
import { Field } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { EPISODE_CODES } from '../fleet';
import { formatDateTime } from '../format';
import type { AlertEpisode } from './devices';

/** Alert episodes across the fleet, newest first: open ones, or cleared ones on request; by code. */
export function AlertsPage() {
  const [state, setState] = useState<'open' | 'cleared' | 'all'>('open');
  const [code, setCode] = useState('');
  const [tokens, setTokens] = useState<(string | null)[]>([null]);
  const token = tokens[tokens.length - 1];
  const list = useQuery({
    queryKey: ['alerts', state, code, token],
    queryFn: () => {
      const query = new URLSearchParams({ state, limit: '50' });
      if (code) query.set('code', code);
      if (token) query.set('next_page_token', token);
      return api<{ alerts: AlertEpisode[]; has_more: boolean; next_page_token: string | null }>('GET', `/alerts?${query}`);
    },
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <h1>Alerts</h1>
      <p className="lead">Leaks, bursts, silent meters and the alarms meters report, newest first.</p>
      <form className="inline" aria-label="Filter alerts" onSubmit={(e) => e.preventDefault()}>
        <Field label="State">
          {(props) => (
            <select
              {...props}
              value={state}
              onChange={(e) => {
                setState(e.target.value as 'open' | 'cleared' | 'all');
                setTokens([null]);
              }}
            >
              <option value="open">Open</option>
              <option value="cleared">Cleared</option>
              <option value="all">Open and cleared</option>
            </select>
          )}
        </Field>
        <Field label="Code">
          {(props) => (
            <select
              {...props}
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setTokens([null]);
              }}
            >
              <option value="">Any code</option>
              {EPISODE_CODES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      {list.isPending ? (
        <Loading what="alerts" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.alerts.length === 0 ? (
        <Empty>
          <p>{state === 'open' ? 'No open alert: every meter looks well.' : 'No alert matches.'}</p>
        </Empty>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Alerts</caption>
              <thead>
                <tr>
                  <th scope="col">Code</th>
                  <th scope="col">Device</th>
                  <th scope="col">Channel</th>
                  <th scope="col">State</th>
                  <th scope="col">Raised</th>
                  <th scope="col">Cleared</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {list.data.alerts.map((a) => (
                  <tr key={a.id}>
                    <th scope="row">
                      <span className={`badge ${a.state === 'open' ? 'failed' : ''}`}>{a.code}</span>
                    </th>
                    <td>
                      <Link href={`/devices/${a.device_id}`}>Device {a.device_id}</Link>
                    </td>
                    <td>{a.channel}</td>
                    <td>{a.state}</td>
                    <td>{formatDateTime(a.raised_at)}</td>
                    <td>{formatDateTime(a.cleared_at)}</td>
                    <td>{a.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <nav className="pager" aria-label="Alert pages">
            <button type="button" disabled={tokens.length === 1} onClick={() => setTokens(tokens.slice(0, -1))}>
              Previous page
            </button>
            <span>Page {tokens.length}</span>
            <button type="button" disabled={!list.data.has_more} onClick={() => list.data.next_page_token && setTokens([...tokens, list.data.next_page_token])}>
              Next page
            </button>
          </nav>
        </>
      )}
    </>
  );
}
