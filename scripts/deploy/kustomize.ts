import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { contentHash, generatorData, type GeneratorSpec } from './generators';
import { isObject, strategicMerge, type Json } from './strategic-merge';

/**
 * A renderer for the subset of Kustomize that deploy/ uses, so CI renders the
 * manifests without a kustomize binary. The kustomization files stay plain
 * Kustomize (`kubectl kustomize` gives the same objects); a field this
 * renderer does not implement is an error, never silently ignored.
 *
 * Supported: resources (files and kustomization directories), namespace,
 * labels (pairs, includeTemplates; not selectors), commonAnnotations, images,
 * configMapGenerator / secretGenerator (envs, files, literals; behavior
 * create|merge|replace; content-hash suffix with reference rewriting) and
 * patches (strategic merge, from a file or inline, optionally with a target).
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [key: string]: Json | undefined };
  [key: string]: Json | K8sObject['metadata'] | undefined;
}

interface Item {
  object: K8sObject;
  /** Set on generated ConfigMaps/Secrets: the name references use, and whether a hash suffix is due. */
  generated?: { name: string; hashed: boolean };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeTemplates?: boolean; includeSelectors?: boolean }[];
  commonAnnotations?: Record<string, string>;
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  configMapGenerator?: GeneratorSpec[];
  secretGenerator?: GeneratorSpec[];
  generatorOptions?: { disableNameSuffixHash?: boolean; labels?: Record<string, string>; annotations?: Record<string, string> };
  patches?: { path?: string; patch?: string; target?: { kind?: string; name?: string } }[];
}

const SUPPORTED_FIELDS = new Set([
  'apiVersion', 'kind', 'resources', 'namespace', 'labels', 'commonAnnotations', 'images',
  'configMapGenerator', 'secretGenerator', 'generatorOptions', 'patches',
]);

const CLUSTER_SCOPED = new Set([
  'Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PersistentVolume',
  'StorageClass', 'PriorityClass', 'IngressClass', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration',
]);

/** API groups whose kinds Kubernetes merges strategically; anything else (CRDs) gets a JSON merge patch. */
const BUILT_IN_API_VERSIONS = new Set(['v1', 'apps/v1', 'batch/v1', 'autoscaling/v2', 'policy/v1', 'networking.k8s.io/v1', 'rbac.authorization.k8s.io/v1']);

/** Renders the kustomization in `dir` to its list of objects, in kustomize's legacy order. */
export function renderKustomization(dir: string): K8sObject[] {
  const items = build(resolve(dir));
  return sortObjects(finishGenerated(items));
}

/**
 * Renders to one multi-document YAML text, as `kubectl kustomize` prints it.
 * YAML 1.1 quoting, because kubectl reads YAML 1.1: an unquoted `yes`, `on` or
 * date there is not a string.
 */
export function renderYaml(dir: string): string {
  return renderKustomization(dir)
    .map((object) => stringify(object, { lineWidth: 0, version: '1.1' }))
    .join('---\n');
}

function readKustomization(dir: string): Kustomization {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const parsed = parseAllDocuments(readFileSync(file, 'utf8'));
  const doc = parsed[0]?.toJS() as Kustomization | undefined;
  if (!doc) throw new Error(`${file}: empty`);
  const unknown = Object.keys(doc).filter((k) => !SUPPORTED_FIELDS.has(k));
  if (unknown.length) throw new Error(`${file}: the deploy renderer does not implement ${unknown.join(', ')}`);
  if (doc.kind && doc.kind !== 'Kustomization') throw new Error(`${file}: kind ${doc.kind} is not Kustomization`);
  return doc;
}

function build(dir: string): Item[] {
  const k = readKustomization(dir);
  const inside = (path: string) => {
    const full = resolve(dir, path);
    if (relative(dir, full).startsWith('..') || relative(dir, full).startsWith(sep)) {
      throw new Error(`${dir}: ${path} is outside the kustomization root (only kustomization directories may be)`);
    }
    return full;
  };

  let items: Item[] = [];
  for (const resource of k.resources ?? []) {
    const full = resolve(dir, resource);
    if (!existsSync(full)) throw new Error(`${dir}: resource ${resource} does not exist`);
    const added = statSync(full).isDirectory() ? build(full) : readObjects(inside(resource));
    for (const item of added) {
      if (items.some((i) => sameId(i, item))) throw new Error(`${dir}: ${describe(item.object)} is defined twice`);
      items.push(item);
    }
  }

  items = applyGenerators(items, k, dir, inside);
  for (const patch of k.patches ?? []) items = applyPatch(items, patch, inside, dir);
  for (const item of items) transform(item, k);
  return items;
}

function readObjects(file: string): Item[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null)
    .map((object) => {
      if (!object.apiVersion || !object.kind || !object.metadata?.name) throw new Error(`${file}: an object lacks apiVersion, kind or metadata.name`);
      return { object };
    });
}

function sameId(a: Item, b: Item): boolean {
  return a.object.kind === b.object.kind && nameOf(a) === nameOf(b) && (a.object.metadata.namespace ?? '') === (b.object.metadata.namespace ?? '');
}

function nameOf(item: Item): string {
  return item.generated?.name ?? item.object.metadata.name;
}

function describe(object: K8sObject): string {
  return `${object.kind}/${object.metadata.name}`;
}

function applyGenerators(items: Item[], k: Kustomization, dir: string, inside: (p: string) => string): Item[] {
  const result = [...items];
  const generate = (kind: 'ConfigMap' | 'Secret', spec: GeneratorSpec) => {
    const data = generatorData(spec, inside);
    const options = { ...k.generatorOptions, ...spec.options };
    const existing = result.find((i) => i.object.kind === kind && i.generated?.name === spec.name);
    const behavior = spec.behavior ?? 'create';
    if (behavior === 'create' && existing) throw new Error(`${dir}: ${kind} ${spec.name} is generated twice; use behavior: merge or replace`);
    if (behavior !== 'create' && !existing) throw new Error(`${dir}: ${kind} ${spec.name} has behavior ${behavior} but no base generates it`);
    const encoded = kind === 'Secret' ? mapValues(data, (v) => Buffer.from(v).toString('base64')) : data;
    if (existing && behavior === 'merge') {
      existing.object.data = { ...(existing.object.data as Record<string, string>), ...encoded };
      return;
    }
    const object: K8sObject = {
      apiVersion: 'v1',
      kind,
      metadata: { name: spec.name, ...(options.labels ? { labels: { ...options.labels } } : {}), ...(options.annotations ? { annotations: { ...options.annotations } } : {}) },
      ...(kind === 'Secret' ? { type: spec.type ?? 'Opaque' } : {}),
      data: encoded,
    };
    const item: Item = { object, generated: { name: spec.name, hashed: !options.disableNameSuffixHash } };
    if (existing) result[result.indexOf(existing)] = item;
    else result.push(item);
  };
  for (const spec of k.configMapGenerator ?? []) generate('ConfigMap', spec);
  for (const spec of k.secretGenerator ?? []) generate('Secret', spec);
  return result;
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

function applyPatch(items: Item[], patch: NonNullable<Kustomization['patches']>[number], inside: (p: string) => string, dir: string): Item[] {
  const text = patch.path ? readFileSync(inside(patch.path), 'utf8') : patch.patch;
  if (!text) throw new Error(`${dir}: a patch has neither path nor patch`);
  const docs = parseAllDocuments(text).map((d) => d.toJS() as Json);
  return docs.reduce<Item[]>((current, doc) => {
    if (Array.isArray(doc)) throw new Error(`${dir}: JSON 6902 patches are not implemented; write a strategic merge patch`);
    if (!isObject(doc)) throw new Error(`${dir}: a patch is not an object`);
    const kind = patch.target?.kind ?? (doc.kind as string | undefined);
    const name = patch.target?.name ?? ((doc.metadata as { name?: string } | undefined)?.name);
    if (!kind || !name) throw new Error(`${dir}: a patch names no kind and name (in the patch or its target)`);
    const matches = current.filter((i) => i.object.kind === kind && nameOf(i) === name);
    if (matches.length !== 1) throw new Error(`${dir}: patch ${patch.path ?? 'inline'} matches ${matches.length} objects for ${kind}/${name}`);
    const [item] = matches;
    const lists = BUILT_IN_API_VERSIONS.has(item.object.apiVersion) ? 'strategic' : 'replace';
    const merged = strategicMerge(item.object as unknown as Json, { ...doc, metadata: { ...(doc.metadata as object), name: item.object.metadata.name } }, { lists });
    return current.map((i) => (i === item ? { ...i, object: merged as unknown as K8sObject } : i));
  }, items);
}

/** Pod specs inside an object, for images, template labels and reference rewriting. */
function podTemplates(object: K8sObject): { metadata?: { labels?: Record<string, string> }; spec?: Record<string, Json> }[] {
  const spec = object.spec as Record<string, Json> | undefined;
  if (!spec) return [];
  if (object.kind === 'CronJob') {
    const job = (spec.jobTemplate as Record<string, Json> | undefined)?.spec as Record<string, Json> | undefined;
    return job?.template ? [job.template as never] : [];
  }
  if (object.kind === 'Pod') return [{ metadata: object.metadata, spec } as never];
  return spec.template && ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job'].includes(object.kind) ? [spec.template as never] : [];
}

export function containersOf(object: K8sObject): Record<string, Json>[] {
  return podTemplates(object).flatMap((t) => [
    ...(((t.spec?.initContainers as Json[] | undefined) ?? []) as Record<string, Json>[]),
    ...(((t.spec?.containers as Json[] | undefined) ?? []) as Record<string, Json>[]),
  ]);
}

function transform(item: Item, k: Kustomization): void {
  const { object } = item;
  if (k.namespace && !CLUSTER_SCOPED.has(object.kind)) {
    const { name, namespace: _old, ...rest } = object.metadata;
    object.metadata = { name, namespace: k.namespace, ...rest };
  }
  for (const label of k.labels ?? []) {
    if (label.includeSelectors) throw new Error('labels.includeSelectors is not implemented: selectors are immutable, keep them in the resources');
    object.metadata.labels = { ...object.metadata.labels, ...label.pairs };
    if (label.includeTemplates) {
      for (const template of podTemplates(object)) template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...label.pairs } };
    }
  }
  if (k.commonAnnotations) object.metadata.annotations = { ...object.metadata.annotations, ...k.commonAnnotations };
  for (const container of containersOf(object)) {
    const image = parseImage(String(container.image ?? ''));
    const rule = (k.images ?? []).find((r) => r.name === image.name);
    if (!rule) continue;
    const name = rule.newName ?? image.name;
    container.image = rule.digest ? `${name}@${rule.digest}` : `${name}${rule.newTag ?? image.tag ? `:${rule.newTag ?? image.tag}` : ''}${!rule.newTag && image.digest ? `@${image.digest}` : ''}`;
  }
}

export function parseImage(image: string): { name: string; tag?: string; digest?: string } {
  const [withoutDigest, digest] = image.split('@');
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  if (colon > slash) return { name: withoutDigest.slice(0, colon), tag: withoutDigest.slice(colon + 1), digest };
  return { name: withoutDigest, digest };
}

/** Appends the content hash to generated names and points every reference at the new name. */
function finishGenerated(items: Item[]): K8sObject[] {
  const renamed = { ConfigMap: new Map<string, string>(), Secret: new Map<string, string>() };
  for (const item of items) {
    if (!item.generated?.hashed) continue;
    const kind = item.object.kind as 'ConfigMap' | 'Secret';
    const hashed = `${item.generated.name}-${contentHash(item.object as never)}`;
    renamed[kind].set(item.generated.name, hashed);
    item.object.metadata.name = hashed;
  }
  for (const { object } of items) {
    for (const template of podTemplates(object)) rewritePodSpec(template.spec ?? {}, renamed);
  }
  return items.map((i) => i.object);
}

function rewritePodSpec(spec: Record<string, Json>, renamed: { ConfigMap: Map<string, string>; Secret: Map<string, string> }): void {
  const rename = (ref: Json | undefined, kind: 'ConfigMap' | 'Secret', field = 'name') => {
    if (isObject(ref) && typeof ref[field] === 'string') ref[field] = renamed[kind].get(ref[field] as string) ?? ref[field];
  };
  const containers = [...((spec.initContainers as Json[]) ?? []), ...((spec.containers as Json[]) ?? [])].filter(isObject);
  for (const container of containers) {
    for (const source of ((container.envFrom as Json[]) ?? []).filter(isObject)) {
      rename(source.configMapRef, 'ConfigMap');
      rename(source.secretRef, 'Secret');
    }
    for (const env of ((container.env as Json[]) ?? []).filter(isObject)) {
      const from = env.valueFrom;
      if (!isObject(from)) continue;
      rename(from.configMapKeyRef, 'ConfigMap');
      rename(from.secretKeyRef, 'Secret');
    }
  }
  for (const volume of ((spec.volumes as Json[]) ?? []).filter(isObject)) {
    rename(volume.configMap, 'ConfigMap');
    rename(volume.secret, 'Secret', 'secretName');
    const sources = isObject(volume.projected) ? ((volume.projected.sources as Json[]) ?? []) : [];
    for (const source of sources.filter(isObject)) {
      rename(source.configMap, 'ConfigMap');
      rename(source.secret, 'Secret');
    }
  }
}

const ORDER_FIRST = [
  'Namespace', 'ResourceQuota', 'StorageClass', 'CustomResourceDefinition', 'ServiceAccount', 'Role', 'ClusterRole',
  'RoleBinding', 'ClusterRoleBinding', 'ConfigMap', 'Secret', 'Endpoints', 'Service', 'LimitRange', 'PriorityClass',
  'PersistentVolume', 'PersistentVolumeClaim', 'Deployment', 'StatefulSet', 'CronJob', 'PodDisruptionBudget',
];
const ORDER_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];

function sortObjects(objects: K8sObject[]): K8sObject[] {
  const rank = (kind: string) => {
    const first = ORDER_FIRST.indexOf(kind);
    if (first >= 0) return first;
    const last = ORDER_LAST.indexOf(kind);
    return last >= 0 ? ORDER_FIRST.length + 1 + last : ORDER_FIRST.length;
  };
  return [...objects].sort(
    (a, b) =>
      rank(a.kind) - rank(b.kind) ||
      `${a.apiVersion}/${a.kind}`.localeCompare(`${b.apiVersion}/${b.kind}`) ||
      (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
}

/** The renderable targets under deploy/. */
export const TARGETS = { base: 'base', dev: 'overlays/dev', prod: 'overlays/prod' } as const;
export type Target = keyof typeof TARGETS;

export function isTarget(value: string): value is Target {
  return Object.hasOwn(TARGETS, value);
}

/** deploy/ of the repository the command runs in (npm runs scripts from the package root). */
export function targetDir(target: Target, repoRoot = process.cwd()): string {
  return join(repoRoot, 'deploy', TARGETS[target]);
}
