import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { Field } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { TableWrap } from '../components/table-wrap';
import { AUDIT_ACTIONS, auditActionLabel } from '../audit';
import { formatDateTime } from '../format';

interface AuditEntry {
  id: string;
  occurred_at: string;
  action: string;
  actor: { type: 'admin' | 'platform'; admin_id: string | null; email: string | null };
  target_id: string | null;
  detail: string | null;
}

/** Who did what and when in the organization, newest first (GET /audit-log); never a secret. */
export function AuditLogPage() {
  const [action, setAction] = useState('');
  const [tokens, setTokens] = useState<(string | null)[]>([null]);
  const token = tokens[tokens.length - 1];
  const list = useQuery({
    queryKey: ['audit-log', action, token],
    queryFn: () => {
      const query = new URLSearchParams({ limit: '50' });
      if (action) query.set('action', action);
      if (token) query.set('next_page_token', token);
      return api<{ entries: AuditEntry[]; has_more: boolean; next_page_token: string | null }>('GET', `/audit-log?${query}`);
    },
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <h1>Audit log</h1>
      <p className="lead">Who did what and when: sign-ins, credentials, vault entries, exports and webhook endpoints. Newest first.</p>
      <form className="inline" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <Field label="Action">
          {(props) => (
            <select
              {...props}
              value={action}
              onChange={(e) => {
                setAction(e.target.value);
                setTokens([null]);
              }}
            >
              <option value="">Any action</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {auditActionLabel(a)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      {list.isPending ? (
        <Loading what="the audit log" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} retry={() => void list.refetch()} />
      ) : list.data.entries.length === 0 ? (
        <Empty>
          <p>{action ? 'No entry of this action yet.' : 'Nothing recorded yet: sign-ins and changes appear here as they happen.'}</p>
        </Empty>
      ) : (
        <>
          <TableWrap>
            <table>
              <caption className="visually-hidden">Audit log</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Target</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {list.data.entries.map((e) => (
                  <tr key={e.id}>
                    <td>{formatDateTime(e.occurred_at)}</td>
                    <td>{e.actor.type === 'platform' ? 'the platform (CLI)' : (e.actor.email ?? e.actor.admin_id)}</td>
                    <th scope="row">{auditActionLabel(e.action)}</th>
                    <td>
                      <code>{e.target_id ?? '—'}</code>
                    </td>
                    <td>{e.detail ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <nav className="pager" aria-label="Audit log pages">
            <button type="button" disabled={tokens.length === 1} onClick={() => setTokens(tokens.slice(0, -1))}>
              Newer entries
            </button>
            <span>Page {tokens.length}</span>
            <button type="button" disabled={!list.data.has_more} onClick={() => list.data.next_page_token && setTokens([...tokens, list.data.next_page_token])}>
              Older entries
            </button>
          </nav>
        </>
      )}
    </>
  );
}
