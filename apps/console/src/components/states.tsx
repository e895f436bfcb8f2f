import type { ReactNode } from 'react';
import { describeError } from '../api/problem';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

/** A failed call shown as a message, never a blank page. */
export function ErrorMessage({ error, retry }: { error: unknown; retry?: () => void }) {
  return (
    <div className="state error" role="alert">
      <p>{describeError(error)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** What an empty list means and what to do next. */
export function Empty({ children }: { children: ReactNode }) {
  return <div className="state empty">{children}</div>;
}
