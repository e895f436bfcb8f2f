/** A server URL safe to print: the password, if any, replaced by `***`. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<unparseable URL>';
  }
}
