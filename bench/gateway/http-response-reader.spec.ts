import { describe, expect, it } from 'vitest';
import { HttpResponseReader } from './http-response-reader';

const response = (status: number, body: string) =>
  `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`;

describe('HttpResponseReader', () => {
  it('splits back-to-back responses however the bytes are cut', () => {
    const stream = Buffer.from(response(200, '{"a":"é"}') + response(429, '') + response(401, 'x'.repeat(3000)));
    for (const cut of [1, 2, 7, 64, 1000, stream.length]) {
      const reader = new HttpResponseReader();
      const statuses: number[] = [];
      for (let i = 0; i < stream.length; i += cut) statuses.push(...reader.push(stream.subarray(i, i + cut)));
      expect(statuses).toEqual([200, 429, 401]);
    }
  });

  it('waits for the whole body', () => {
    const reader = new HttpResponseReader();
    const bytes = Buffer.from(response(200, 'abcdef'));
    expect(reader.push(bytes.subarray(0, bytes.length - 1))).toEqual([]);
    expect(reader.push(bytes.subarray(bytes.length - 1))).toEqual([200]);
  });

  it('refuses what it cannot frame', () => {
    expect(() => new HttpResponseReader().push(Buffer.from('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n'))).toThrow(/Content-Length/);
    expect(() => new HttpResponseReader().push(Buffer.from('SSH-2.0\r\n\r\n'))).toThrow(/not an HTTP/);
  });
});
