import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/** A `configMapGenerator` / `secretGenerator` entry of a kustomization. */
export interface GeneratorSpec {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  envs?: string[];
  files?: string[];
  literals?: string[];
  type?: string;
  options?: { disableNameSuffixHash?: boolean; labels?: Record<string, string>; annotations?: Record<string, string> };
}

const KEY = /^[-._a-zA-Z0-9]+$/;

/** `KEY=VALUE` lines; blank lines and `#` comments skipped; the value is kept verbatim (no quotes removed). */
export function parseEnvFile(text: string, source: string): Record<string, string> {
  const data: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const at = line.indexOf('=');
    if (at <= 0) throw new Error(`${source}:${index + 1}: expected KEY=VALUE`);
    data[line.slice(0, at)] = line.slice(at + 1);
  });
  return data;
}

/** The data of one generator entry: envs, then files, then literals; a repeated key is an error. */
export function generatorData(spec: GeneratorSpec, resolve: (path: string) => string): Record<string, string> {
  const data: Record<string, string> = {};
  const put = (key: string, value: string, from: string) => {
    if (!KEY.test(key)) throw new Error(`${spec.name}: key ${JSON.stringify(key)} from ${from} is not a valid ConfigMap key`);
    if (key in data) throw new Error(`${spec.name}: key ${key} is given twice (${from})`);
    data[key] = value;
  };
  for (const env of spec.envs ?? []) {
    for (const [k, v] of Object.entries(parseEnvFile(readFileSync(resolve(env), 'utf8'), env))) put(k, v, env);
  }
  for (const file of spec.files ?? []) {
    const at = file.indexOf('=');
    const [key, path] = at > 0 ? [file.slice(0, at), file.slice(at + 1)] : [basename(file), file];
    put(key, readFileSync(resolve(path), 'utf8'), file);
  }
  for (const literal of spec.literals ?? []) {
    const at = literal.indexOf('=');
    if (at <= 0) throw new Error(`${spec.name}: literal ${JSON.stringify(literal)} is not KEY=VALUE`);
    put(literal.slice(0, at), literal.slice(at + 1), 'literals');
  }
  return data;
}

/**
 * The name suffix kustomize appends to a generated ConfigMap or Secret: the
 * first 10 hex digits of a SHA-256 over its kind, name and data, with 0 1 3 a e
 * mapped to g h k m t. A change of content renames the object, and the
 * reference rewrite then rolls every pod that uses it.
 */
export function contentHash(object: { kind: string; metadata: { name: string }; data?: Record<string, string>; type?: string }): string {
  const sorted = (record: Record<string, string> = {}) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
  const canonical =
    object.kind === 'Secret'
      ? { data: sorted(object.data), kind: object.kind, name: object.metadata.name, type: object.type ?? 'Opaque' }
      : { data: sorted(object.data), kind: object.kind, name: object.metadata.name };
  const hex = createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 10);
  const map: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex].map((c) => map[c] ?? c).join('');
}
