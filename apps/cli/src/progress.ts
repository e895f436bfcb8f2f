/**
 * Progress of long work on stderr, so stdout keeps only the command's
 * answer: a line when it starts, at most one a second while it runs, and
 * one when it is done.
 */
export class Progress {
  private done = 0;
  private lastLine = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly unit: string,
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly everyMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  start(what: string): void {
    this.lastLine = this.now();
    this.write(`${this.label}: ${what}: ${this.total.toLocaleString('en-US')} ${this.unit}`);
  }

  /** `count` more are done; prints a line when the last was long enough ago. */
  advance(count: number, detail?: string): void {
    this.set(this.done + count, detail);
  }

  /** `done` of the total are done. */
  set(done: number, detail?: string): void {
    this.done = done;
    if (this.now() - this.lastLine < this.everyMs) return;
    this.lastLine = this.now();
    this.write(this.line(detail));
  }

  finish(detail?: string): void {
    this.write(this.line(detail));
  }

  private line(detail?: string): string {
    const percent = this.total > 0 ? Math.floor((this.done / this.total) * 100) : 100;
    return `${this.label}: ${this.done.toLocaleString('en-US')} of ${this.total.toLocaleString('en-US')} ${this.unit} (${percent}%)${detail ? `, ${detail}` : ''}`;
  }
}
