import { describe, expect, it } from 'vitest';
import { replayAlarms, type LoggedAlarm } from './alarm-replay';

const raised = (seq: number, at: number): LoggedAlarm => ({ seq, state: 'raised', at, message: `m${seq}` });
const cleared = (seq: number, at: number): LoggedAlarm => ({ seq, state: 'cleared', at, message: '' });

describe('replayAlarms: a device alarm code’s episodes, as its messages give them in stream order', () => {
  it.each([
    ['a raise opens', [raised(1, 10)], [{ raisedAt: 10, clearedAt: null, message: 'm1' }]],
    ['a clear closes', [raised(1, 10), cleared(2, 20)], [{ raisedAt: 10, clearedAt: 20, message: 'm1' }]],
    ['the clear arriving first changes nothing', [cleared(2, 20), raised(1, 10)], [{ raisedAt: 10, clearedAt: 20, message: 'm1' }]],
    [
      'raise, clear, raise arriving backwards',
      [raised(3, 30), cleared(2, 20), raised(1, 10)],
      [
        { raisedAt: 10, clearedAt: 20, message: 'm1' },
        { raisedAt: 30, clearedAt: null, message: 'm3' },
      ],
    ],
    ['a raise while one is open is no episode', [raised(1, 10), raised(2, 15), cleared(3, 20)], [{ raisedAt: 10, clearedAt: 20, message: 'm1' }]],
    ['a clear before the raise’s time closes nothing', [raised(1, 10), cleared(2, 5)], [{ raisedAt: 10, clearedAt: null, message: 'm1' }]],
    ['a clear with nothing open is nothing', [cleared(1, 5)], []],
    [
      'a raise at the time of an earlier episode is that episode again',
      [raised(1, 10), cleared(2, 20), raised(3, 10)],
      [{ raisedAt: 10, clearedAt: 20, message: 'm1' }],
    ],
  ])('%s', (_name, logged, expected) => {
    expect(replayAlarms(logged)).toEqual(expected);
  });

  it('closes an episode open before the log began', () => {
    expect(replayAlarms([cleared(7, 50), raised(8, 60)], { raisedAt: 1, clearedAt: 40, message: 'old' })).toEqual([
      { raisedAt: 1, clearedAt: 50, message: 'old' },
      { raisedAt: 60, clearedAt: null, message: 'm8' },
    ]);
  });

  it('gives the same episodes for every arrival order of the same messages', () => {
    const messages = [raised(1, 10), cleared(2, 20), raised(3, 30), raised(4, 35), cleared(5, 40), cleared(6, 45), raised(7, 50)];
    const inOrder = replayAlarms(messages);
    for (let shift = 1; shift < messages.length; shift++) {
      expect(replayAlarms([...messages.slice(shift), ...messages.slice(0, shift)].reverse())).toEqual(inOrder);
    }
  });
});
