import { Query, type ClientBase } from 'pg';

/** The protocol side of a connection during `COPY ... FROM STDIN`: node-postgres's Connection. */
interface CopyConnection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/**
 * A simple-protocol query that answers the server's CopyInResponse with the
 * given chunks (node-postgres calls `handleCopyInResponse` on the active
 * query; its own Query refuses with CopyFail).
 */
class CopyFromChunks extends Query {
  constructor(
    text: string,
    private readonly chunks: readonly Buffer[],
    callback: (error: Error | undefined, result: { rowCount: number | null } | undefined) => void,
  ) {
    super(text, callback);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (const chunk of this.chunks) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }
}

/**
 * Runs `COPY <table> (...) FROM STDIN` with data already encoded in the
 * statement's format (e.g. `FORMAT binary`), on the caller's connection and
 * inside its transaction. Resolves to the number of rows copied; a refusal
 * by the server rejects like any query.
 */
export function copyFrom(client: ClientBase, copySql: string, chunks: readonly Buffer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const query = new CopyFromChunks(copySql, chunks, (error, result) => (error ? reject(error) : resolve(result?.rowCount ?? 0)));
    void client.query(query);
  });
}
