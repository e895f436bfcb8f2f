/**
 * Splits a keep-alive HTTP/1.1 byte stream into responses, for the paced load
 * generator. It needs `Content-Length` (what Fastify sends for JSON and text);
 * a chunked or length-less response is reported as an error, never guessed.
 */
export class HttpResponseReader {
  private buffer: Buffer = Buffer.alloc(0);
  /** Status and remaining body bytes of the response being read; undefined between responses. */
  private current?: { status: number; remaining: number };

  /** Feeds bytes; returns the status codes of the responses they completed, in order. */
  push(chunk: Buffer): number[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const done: number[] = [];
    for (;;) {
      if (!this.current) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) return done;
        const head = this.buffer.subarray(0, end).toString('latin1');
        this.buffer = this.buffer.subarray(end + 4);
        this.current = parseHead(head);
      }
      if (this.buffer.length < this.current.remaining) {
        this.current.remaining -= this.buffer.length;
        this.buffer = Buffer.alloc(0);
        return done;
      }
      this.buffer = this.buffer.subarray(this.current.remaining);
      done.push(this.current.status);
      this.current = undefined;
    }
  }
}

export function parseHead(head: string): { status: number; remaining: number } {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (!match) throw new Error(`not an HTTP/1.x response: ${JSON.stringify(head.slice(0, 40))}`);
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (!length) throw new Error('response without Content-Length (chunked?): the paced load generator cannot read it');
  return { status: Number(match[1]), remaining: Number(length[1]) };
}
