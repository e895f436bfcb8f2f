import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api/client';
import { ConsumptionChart } from '../components/chart';
import { Field } from '../components/field';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { dailyRows, periodChoices, threeMonthRows, UNIT_CHOICES, type Quality } from '../fleet';
import { formatDateTime, localDate } from '../format';
import { DeviceRadioIdsPanel } from './device-radio-ids';
import type { AlertEpisode } from './devices';

interface DailyHistory {
  time_zone: string;
  chart_type: 'BAR' | 'LINE';
  series: {
    label: string;
    unit: string;
    data_points: { date: string; value: string; quality: Quality }[];
  }[];
  summary: string;
}
interface ThreeMonths {
  series: {
    label: string;
    unit: string;
    rows: { date: string; value: string; value_fmt: string; by_days: { date: string; value: string; quality: Quality }[] }[];
  }[];
}
interface Projection {
  projected_value: number;
  projected_cost: number;
  unit: string;
  currency_symbol: string;
  days_used_for_calculation: number;
  total_days_in_month: number;
  average_daily_consumption: number;
  projection_date: string;
}

/** One device: daily history for a period, three months, the month's projection and cost, open alerts; in its zone and unit unless chosen. */
export function DevicePage({ params }: { params: { id: string } }) {
  const id = params.id;
  const [period, setPeriod] = useState('7D');
  const [zone, setZone] = useState('');
  const [zoneText, setZoneText] = useState('');
  const [unit, setUnit] = useState('');
  const headers: Record<string, string> = {};
  if (zone) headers['x-timezone'] = zone;
  if (unit) headers['x-unit'] = unit;
  const history = useQuery({
    queryKey: ['history', id, period, zone, unit],
    queryFn: () => api<DailyHistory>('GET', `/devices/${id}/history?period=${encodeURIComponent(period)}`, undefined, headers),
    // The charts (and their open tables) stay while another period, zone or unit loads.
    placeholderData: keepPreviousData,
  });
  const months = useQuery({
    queryKey: ['history3m', id, zone, unit],
    queryFn: () => api<ThreeMonths>('GET', `/devices/${id}/history/3m`, undefined, headers),
    placeholderData: keepPreviousData,
  });
  const projection = useQuery({
    queryKey: ['projection', id, zone, unit],
    queryFn: () => api<Projection>('GET', `/devices/${id}/projection`, undefined, headers),
  });
  const alerts = useQuery({ queryKey: ['device-alerts', id], queryFn: () => api<{ alerts: AlertEpisode[] }>('GET', `/devices/${id}/alerts`) });
  const name = history.data?.series[0]?.label.replace(/ \(channel \d+\)$/, '') ?? `Device ${id}`;
  const shownZone = history.data?.time_zone ?? zone;
  const today = localDate(shownZone || 'UTC');

  return (
    <>
      <p className="crumbs">
        <Link href="/devices">Devices</Link> / {id}
      </p>
      <h1>{name}</h1>
      <p className="lead">
        Device {id}
        {history.data ? ` · ${history.data.time_zone} · ${history.data.series[0]?.unit ?? ''}` : ''}
      </p>
      <form className="inline controls" aria-label="What to show" onSubmit={(e) => (e.preventDefault(), setZone(zoneText.trim()))}>
        <Field label="Period">
          {(props) => (
            <select {...props} value={period} onChange={(e) => setPeriod(e.target.value)}>
              {periodChoices(today).map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Unit">
          {(props) => (
            <select {...props} value={unit} onChange={(e) => setUnit(e.target.value)}>
              <option value="">Device’s unit</option>
              {UNIT_CHOICES.map((u) => (
                <option key={u.header} value={u.header}>
                  {u.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Time zone" hint="Empty: the device’s.">
          {(props) => <input {...props} value={zoneText} placeholder={history.data?.time_zone} onChange={(e) => setZoneText(e.target.value)} />}
        </Field>
        <button type="submit">Apply zone</button>
      </form>

      <section className="panel" aria-labelledby="history-heading">
        <h2 id="history-heading">Daily history</h2>
        {history.isPending ? (
          <Loading what="the history" />
        ) : history.isError ? (
          <ErrorMessage error={history.error} retry={() => void history.refetch()} />
        ) : (
          <>
            {history.data.series.map((s) => (
              <ConsumptionChart key={s.label} title={s.label} unit={s.unit} kind={history.data.chart_type} rows={dailyRows(s.data_points)} />
            ))}
            <p className="meta">{history.data.summary}</p>
          </>
        )}
      </section>

      <div className="columns">
        <section className="panel" aria-labelledby="projection-heading">
          <h2 id="projection-heading">This month’s projection</h2>
          {projection.isPending ? (
            <Loading what="the projection" />
          ) : projection.isError ? (
            <ErrorMessage error={projection.error} retry={() => void projection.refetch()} />
          ) : (
            <dl className="figures">
              <div>
                <dt>Projected consumption</dt>
                <dd>
                  {projection.data.projected_value} {projection.data.unit}
                </dd>
              </div>
              <div>
                <dt>Projected cost</dt>
                <dd>
                  {projection.data.currency_symbol}
                  {projection.data.projected_cost.toFixed(2)}
                </dd>
              </div>
              <div>
                <dt>Average per day</dt>
                <dd>
                  {projection.data.average_daily_consumption} {projection.data.unit}
                </dd>
              </div>
              <div>
                <dt>Days used</dt>
                <dd>
                  {projection.data.days_used_for_calculation} of {projection.data.total_days_in_month}
                </dd>
              </div>
            </dl>
          )}
        </section>
        <section className="panel" aria-labelledby="alerts-heading">
          <h2 id="alerts-heading">Open alerts</h2>
          {alerts.isPending ? (
            <Loading what="alerts" />
          ) : alerts.isError ? (
            <ErrorMessage error={alerts.error} retry={() => void alerts.refetch()} />
          ) : alerts.data.alerts.length === 0 ? (
            <p className="state">No open alert.</p>
          ) : (
            <ul className="alerts">
              {alerts.data.alerts.map((a) => (
                <li key={a.id}>
                  <span className="badge failed">{a.code}</span> channel {a.channel}, since {formatDateTime(a.raised_at, shownZone || undefined)}: {a.message}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <DeviceRadioIdsPanel id={id} />

      <section className="panel" aria-labelledby="months-heading">
        <h2 id="months-heading">Three months</h2>
        {months.isPending ? (
          <Loading what="three months" />
        ) : months.isError ? (
          <ErrorMessage error={months.error} retry={() => void months.refetch()} />
        ) : months.data.series.length === 0 ? (
          <Empty>
            <p>No readings yet.</p>
          </Empty>
        ) : (
          months.data.series.map((s) => (
            <div key={s.label}>
              <p className="meta">{s.rows.map((m) => `${m.date.slice(0, 7)}: ${m.value_fmt}`).join(' · ')}</p>
              <ConsumptionChart title={`${s.label}, day by day over three months`} unit={s.unit} kind="LINE" rows={threeMonthRows(s.rows)} />
            </div>
          ))
        )}
      </section>
    </>
  );
}
