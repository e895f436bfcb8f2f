import { describe, expect, it } from 'vitest';
import { noDataAlert, registerResetAlert } from '../alert';
import { localDays } from '../local-day';
import { dayAlertCodes, episodesByDay } from './day-alert-codes';

describe('dayAlertCodes', () => {
  const leak = { code: 'LEAK' as const, raisedAt: 2, message: 'leak 2' };
  it.each([
    ['no episodes: the day alone', [noDataAlert()], [], ['NO_DATA']],
    [
      'the day first, then one per code in code order',
      [registerResetAlert(1)],
      [{ code: 'TAMPER' as const, raisedAt: 1, message: 't' }, leak],
      ['REGISTER_RESET', 'LEAK', 'TAMPER'],
    ],
    ['one per code however many episodes', [], [leak, { ...leak, raisedAt: 1, message: 'leak 1' }], ['LEAK']],
  ])('%s', (_name, alerts, episodes, codes) => {
    expect(dayAlertCodes({ alerts }, episodes).map((a) => a.code)).toEqual(codes);
  });

  it('takes the message of the first episode of the code', () => {
    expect(dayAlertCodes({ alerts: [] }, [leak, { ...leak, raisedAt: 1, message: 'leak 1' }])).toEqual([{ code: 'LEAK', message: 'leak 1' }]);
  });
});

describe('episodesByDay', () => {
  it('puts each episode on the local day it was raised, days half-open', () => {
    const days = localDays('2026-11-20', '2026-11-21', 'Europe/Madrid');
    const atMidnight = { raisedAt: days[1].start };
    const before = { raisedAt: days[1].start - 1 };
    expect(episodesByDay(days, [atMidnight, before])).toEqual([[before], [atMidnight]]);
  });
});
