import { useRef, type ReactNode } from 'react';

interface ConfirmButtonProps {
  /** The button's text, e.g. `Revoke`. */
  label: string;
  /** Its accessible name when the text alone is ambiguous in a table, e.g. `Revoke Billing export`. */
  ariaLabel?: string;
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}

/** A destructive action that asks first, in a modal dialog (Escape or Cancel keeps things as they are). */
export function ConfirmButton({ label, ariaLabel, question, confirmLabel, onConfirm, disabled }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="danger" aria-label={ariaLabel} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-label={ariaLabel ?? label}>
        <p>{question}</p>
        <div className="actions">
          <button type="button" onClick={() => dialog.current?.close()} autoFocus>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
