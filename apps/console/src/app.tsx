import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { whenUnauthorized } from './api/client';
import { ErrorMessage, Loading } from './components/states';
import { AlertsPage } from './pages/alerts';
import { AuditLogPage } from './pages/audit-log';
import { CredentialsPage } from './pages/credentials';
import { DevicePage } from './pages/device';
import { DevicesPage } from './pages/devices';
import { ExportsPage } from './pages/exports';
import { SignInPage } from './pages/sign-in';
import { VaultPage } from './pages/vault';
import { WebhooksPage } from './pages/webhooks';
import { currentSession, signOut, type ConsoleSession } from './session';

/** The pages of contract section 11, in the navigation's order. */
const PAGES = [
  { path: '/devices', name: 'Devices' },
  { path: '/alerts', name: 'Alerts' },
  { path: '/credentials', name: 'Credentials' },
  { path: '/vault', name: 'Vault' },
  { path: '/exports', name: 'Exports' },
  { path: '/webhooks', name: 'Webhooks' },
  { path: '/audit-log', name: 'Audit log' },
];

type State =
  { kind: 'loading' } | { kind: 'failed'; error: unknown } | { kind: 'signed-out'; notice?: string } | { kind: 'signed-in'; session: ConsoleSession };

export function App() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = () => {
    setState({ kind: 'loading' });
    currentSession().then(
      (session) => setState(session ? { kind: 'signed-in', session } : { kind: 'signed-out' }),
      (error: unknown) => setState({ kind: 'failed', error }),
    );
  };

  useEffect(() => {
    load();
    whenUnauthorized(() => {
      queryClient.clear();
      setState({ kind: 'signed-out', notice: 'Your session has expired. Sign in again.' });
    });
  }, [queryClient]);

  if (state.kind === 'loading') return <Loading what="the console" />;
  if (state.kind === 'failed') return <ErrorMessage error={state.error} retry={load} />;
  if (state.kind === 'signed-out') return <SignInPage notice={state.notice} onSignedIn={(session) => setState({ kind: 'signed-in', session })} />;

  const leave = async () => {
    await signOut().catch(() => undefined);
    queryClient.clear();
    setState({ kind: 'signed-out', notice: 'You have signed out.' });
  };

  return (
    <Router base="/console">
      <header className="top">
        <span className="brand">Meter console</span>
        <nav aria-label="Main">
          {PAGES.map((page) => (
            <NavLink key={page.path} href={page.path} name={page.name} />
          ))}
        </nav>
        <div className="who">
          <span title={state.session.org_id}>{state.session.email}</span>
          <button type="button" onClick={() => void leave()}>
            Sign out
          </button>
        </div>
      </header>
      <main className="page">
        <Switch>
          <Route path="/credentials" component={CredentialsPage} />
          <Route path="/vault" component={VaultPage} />
          <Route path="/exports" component={ExportsPage} />
          <Route path="/webhooks" component={WebhooksPage} />
          <Route path="/devices" component={DevicesPage} />
          <Route path="/devices/:id" component={DevicePage} />
          <Route path="/alerts" component={AlertsPage} />
          <Route path="/audit-log" component={AuditLogPage} />
          <Route>
            <Redirect to="/devices" replace />
          </Route>
        </Switch>
      </main>
    </Router>
  );
}

function NavLink({ href, name }: { href: string; name: string }) {
  const [location] = useLocation();
  const current = location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? 'page' : undefined}>
      {name}
    </Link>
  );
}
