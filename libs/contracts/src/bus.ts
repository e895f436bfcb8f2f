/**
 * Names on the bus. A deployment (or a test run) may set a prefix; it is
 * put in front of every subject and stream name so runs never see each
 * other's messages.
 */
export class BusNames {
  constructor(readonly prefix: string = '') {}

  subject(name: string): string {
    return this.prefix ? `${this.prefix}.${name}` : name;
  }

  /** The subject without the prefix, for routing on received messages. */
  unprefixed(subject: string): string {
    return this.prefix && subject.startsWith(`${this.prefix}.`) ? subject.slice(this.prefix.length + 1) : subject;
  }

  stream(name: string): string {
    return this.prefix ? `${this.prefix.toUpperCase().replace(/[^A-Z0-9_-]/g, '_')}_${name}` : name;
  }

  consumer(name: string): string {
    return this.stream(name);
  }
}
