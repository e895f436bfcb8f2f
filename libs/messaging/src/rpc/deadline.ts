import { RpcFailure } from './rpc-failure';

/**
 * The time by which a request's sender stops waiting (its `Meter-Deadline`
 * header). Work past it is refused: on receipt, and inside the transaction
 * just before commit, so a sender that gave up (and answered 503) never has
 * its write applied afterwards.
 */
export class Deadline {
  static readonly none = new Deadline(undefined);

  constructor(readonly at: number | undefined) {}

  passed(now = Date.now()): boolean {
    return this.at !== undefined && now >= this.at;
  }

  /** Throws `deadline_exceeded` once passed; thrown inside a transaction, it rolls the transaction back. */
  check(now = Date.now()): void {
    if (this.passed(now)) {
      throw new RpcFailure({ code: 'deadline_exceeded', detail: 'the request arrived or finished after its deadline; nothing was changed' });
    }
  }
}
