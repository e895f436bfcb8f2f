import { useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartColumns, type ChartRow } from '../fleet';

interface ChartProps {
  title: string;
  rows: ChartRow[];
  unit: string;
  kind: 'BAR' | 'LINE';
}

const DAY = 86_400;
const DAY_STEPS = [DAY, 2 * DAY, 5 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];

/** A consumption chart (uPlot, axes labelled with the unit) with its `Show table` of date, value and quality. */
export function ConsumptionChart({ title, rows, unit, kind }: ChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const [table, setTable] = useState(false);
  const tableId = useId();

  useEffect(() => {
    const element = host.current;
    if (!element || rows.length === 0) return;
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          // Whole days only: a tick between two days would repeat a date.
          { label: 'Date', incrs: DAY_STEPS, values: (_u, splits) => splits.map((s) => new Date(s * 1000).toISOString().slice(5, 10)) },
          { label: `Consumption (${unit})`, size: 70 },
        ],
        series: [
          {},
          {
            label: `Consumption (${unit})`,
            stroke: '#0b5cad',
            fill: kind === 'BAR' ? 'rgba(11, 92, 173, 0.55)' : 'rgba(11, 92, 173, 0.12)',
            width: kind === 'BAR' ? 0 : 2,
            paths: kind === 'BAR' ? uPlot.paths.bars!({ size: [0.7, 40] }) : undefined,
            points: { show: kind === 'LINE' && rows.length <= 31 },
          },
        ],
      },
      chartColumns(rows),
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [rows, unit, kind]);

  return (
    <figure className="chart">
      <figcaption>
        <span>{title}</span>
        <button type="button" aria-expanded={table} aria-controls={tableId} onClick={() => setTable(!table)}>
          {table ? 'Hide table' : 'Show table'}
        </button>
      </figcaption>
      {rows.length === 0 ? (
        <p className="state">No days in this period.</p>
      ) : (
        <div ref={host} role="img" aria-label={`${title}, ${rows.length} days, in ${unit}`} />
      )}
      {table && (
        <div className="table-wrap" id={tableId}>
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Value ({unit})
                </th>
                <th scope="col">Quality</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.date}>
                  <th scope="row">{row.date}</th>
                  <td className="num">{row.value}</td>
                  <td>{row.quality || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}
