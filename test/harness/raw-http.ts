import { connect } from 'node:net';

/** An HTTP answer as it came off the socket. */
export interface RawAnswer {
  status: number;
  /** The status line and headers, in lower case. */
  head: string;
  body: string;
  /** Bytes of the whole answer. */
  length: number;
}

/**
 * Writes raw bytes to a server (a request Node's parser may refuse, or one
 * left unfinished on purpose: the socket is not ended) and reads until the
 * server closes the connection.
 */
export function rawExchange(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket
      .on('close', () => {
        const end = answer.indexOf('\r\n\r\n');
        const head = answer.slice(0, end).toLowerCase();
        resolve({ status: Number(head.split(' ')[1]), head, body: answer.slice(end + 4), length: Buffer.byteLength(answer, 'latin1') });
      })
      .on('error', reject);
  });
}
