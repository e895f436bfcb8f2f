import type { EpisodeCode } from './alerts/episode-codes';

/** A day's own remarks, and the codes of alert episodes (docs/alerts-and-webhooks.md) shown on days and panels. */
export type AlertCode = 'REGISTER_RESET' | 'NO_DATA' | EpisodeCode;

/** A remark on a value, shown to integrators; `code` is stable, `message` is for humans. */
export interface Alert {
  code: AlertCode;
  message: string;
}

export function registerResetAlert(resets: number): Alert {
  const times = resets === 1 ? 'once' : `${resets} times`;
  return {
    code: 'REGISTER_RESET',
    message: `The register value went down ${times} on this day (meter reset or replaced); the interval before each decrease counts 0.`,
  };
}

export function noDataAlert(): Alert {
  return { code: 'NO_DATA', message: 'No readings cover this day; its value is 0.' };
}
