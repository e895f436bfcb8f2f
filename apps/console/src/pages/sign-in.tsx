import { useState, type FormEvent } from 'react';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { Field, FormError } from '../components/field';
import { signIn, type ConsoleSession } from '../session';

/** Email and password; the session goes into an HttpOnly cookie, never into the page. */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: ConsoleSession) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      onSignedIn(await signIn(email, password));
    } catch (error) {
      if (error instanceof ApiError && error.errors.length > 0) setErrors(fieldErrorsFor(error.errors, ['email', 'password']));
      else if (error instanceof ApiError && error.status === 401) setErrors({ '': 'The email or the password is wrong.' });
      else setErrors({ '': describeError(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>Meter console</h1>
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        <Field label="Email" error={errors.email}>
          {(props) => <input {...props} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Password" error={errors.password}>
          {(props) => (
            <input {...props} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          )}
        </Field>
        <FormError message={errors['']} />
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
