/** A typed failure an RPC handler throws; the server sends it back as `{ok: false, error}`. */
export class RpcFailure<E extends { code: string; detail: string } = { code: string; detail: string }> extends Error {
  constructor(readonly error: E) {
    super(error.detail);
  }
}
