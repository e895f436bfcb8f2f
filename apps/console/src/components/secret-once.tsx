import { useState } from 'react';

/** A secret shown once, with a copy button and the warning that it will not be shown again. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <section className="secret-once" aria-label={label}>
      <p role="alert">
        <strong>Copy the {label.toLowerCase()} now.</strong> It will not be shown again.
      </p>
      <div className="secret-row">
        <output aria-label={label} className="secret-value">
          {value}
        </output>
        <button
          type="button"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
