import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client';
import { Field } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { lastReadingText } from '../fleet';
import { formatDateTime } from '../format';

export interface AlertEpisode {
  id: string;
  device_id: number;
  channel: number;
  code: string;
  state: 'open' | 'cleared';
  raised_at: string;
  cleared_at: string | null;
  message: string;
}
interface FleetDevice {
  device_id: number;
  name: string;
  unit: string;
  time_zone: string;
  last_reading: { channel: number; read_at: string; value: string } | null;
  open_alerts: AlertEpisode[];
}
interface DevicePage {
  devices: FleetDevice[];
  has_more: boolean;
  next_page_token: string | null;
}

/** The fleet, 50 devices a page (keyset pages: page 200 costs what page 1 does), searchable by id or name. */
export function DevicesPage() {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  // Tokens of the pages seen, so Previous goes back without the server keeping anything.
  const [tokens, setTokens] = useState<(string | null)[]>([null]);
  const token = tokens[tokens.length - 1];
  const list = useQuery({
    queryKey: ['devices', search, token],
    queryFn: () => {
      const query = new URLSearchParams({ limit: '50' });
      if (search) query.set('q', search);
      if (token) query.set('next_page_token', token);
      return api<DevicePage>('GET', `/devices?${query}`);
    },
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(text.trim());
    setTokens([null]);
  };
  return (
    <>
      <h1>Devices</h1>
      <p className="lead">Every meter of the organization with its newest reading and open alerts.</p>
      <form className="inline search" role="search" onSubmit={submit}>
        <Field label="Search devices" hint="An id, or part of a name.">
          {(props) => <input {...props} type="search" value={text} onChange={(e) => setText(e.target.value)} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      {list.isPending ? (
        <Loading what="devices" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.devices.length === 0 ? (
        <Empty>
          {search ? (
            <p>No device matches “{search}”.</p>
          ) : (
            <p>No devices yet. A meter appears here with its first reading (collectors, or the bus: docs/collectors.md).</p>
          )}
        </Empty>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Devices</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    ID
                  </th>
                  <th scope="col">Name</th>
                  <th scope="col">Unit</th>
                  <th scope="col">Time zone</th>
                  <th scope="col">Last reading</th>
                  <th scope="col">Open alerts</th>
                </tr>
              </thead>
              <tbody>
                {list.data.devices.map((d) => (
                  <tr key={d.device_id}>
                    <td className="num">{d.device_id}</td>
                    <th scope="row">
                      <Link href={`/devices/${d.device_id}`}>{d.name}</Link>
                    </th>
                    <td>{d.unit}</td>
                    <td>{d.time_zone}</td>
                    <td>{lastReadingText(d.last_reading, d.unit, (iso) => formatDateTime(iso, d.time_zone))}</td>
                    <td>
                      {d.open_alerts.length === 0
                        ? 'none'
                        : d.open_alerts.map((a) => (
                            <span key={a.id} className="badge failed" title={a.message}>
                              {a.code}
                            </span>
                          ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <nav className="pager" aria-label="Device pages">
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
