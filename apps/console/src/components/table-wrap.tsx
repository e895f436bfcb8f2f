import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A table that scrolls inside its frame on a wide screen and, on a phone, shows each row as a card
 * whose cells carry their column's name (copied from the header into `data-label` for the CSS).
 */
export function TableWrap({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const table = ref.current?.querySelector('table');
    if (!table) return;
    const heads = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
    for (const row of Array.from(table.querySelectorAll('tbody tr'))) {
      Array.from(row.children).forEach((cell, i) => cell.setAttribute('data-label', heads[i] ?? ''));
    }
  });
  return (
    <div className="table-wrap stack" ref={ref}>
      {children}
    </div>
  );
}
