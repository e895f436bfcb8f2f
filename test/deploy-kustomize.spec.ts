import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, parseEnvFile } from '../scripts/deploy/generators';
import { parseImage, renderKustomization } from '../scripts/deploy/kustomize';
import { strategicMerge } from '../scripts/deploy/strategic-merge';

/** The Kustomize subset of scripts/deploy, on small trees written to a temporary directory. */
let root: string;
const tree = (files: Record<string, string>) => {
  root = mkdtempSync(join(tmpdir(), 'kustomize-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
};
afterEach(() => root && rmSync(root, { recursive: true, force: true }));

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: example/web:1.0
          envFrom: [{configMapRef: {name: settings}}]
          env: [{name: A, value: "1"}, {name: B, value: "2"}]
        - name: sidecar
          image: busybox
      volumes: [{name: conf, configMap: {name: settings}}]
`;

describe('strategicMerge', () => {
  it('merges containers and env by name, replaces other lists, deletes with null', () => {
    const merged = strategicMerge(
      { spec: { containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }] }, { name: 'b' }], args: ['1', '2'], keep: 1, drop: 2 } },
      { spec: { containers: [{ name: 'a', env: [{ name: 'B', value: '2' }] }, { name: 'c' }], args: ['3'], drop: null } },
    );
    expect(merged).toEqual({
      spec: {
        containers: [
          {
            name: 'a',
            image: 'x',
            env: [
              { name: 'A', value: '1' },
              { name: 'B', value: '2' },
            ],
          },
          { name: 'b' },
          { name: 'c' },
        ],
        args: ['3'],
        keep: 1,
      },
    });
  });

  it('removes a list element with $patch: delete, and replaces lists wholesale for custom resources', () => {
    expect(strategicMerge({ containers: [{ name: 'a' }, { name: 'b' }] }, { containers: [{ name: 'a', $patch: 'delete' }] })).toEqual({
      containers: [{ name: 'b' }],
    });
    expect(strategicMerge({ containers: [{ name: 'a' }] }, { containers: [{ name: 'b' }] }, { lists: 'replace' })).toEqual({ containers: [{ name: 'b' }] });
  });
});

describe('renderKustomization', () => {
  it('applies namespace, labels, images, generators with hash and reference rewriting, and overlay patches', () => {
    const dir = tree({
      'base/kustomization.yaml': `
resources: [web.yaml, ns.yaml]
namespace: shop
labels: [{pairs: {team: a}, includeTemplates: true}]
images: [{name: example/web, newName: registry.example/web, newTag: "2.0"}]
configMapGenerator: [{name: settings, literals: [MODE=base, LEVEL=1]}]
`,
      'base/web.yaml': deployment,
      'base/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
      'overlay/kustomization.yaml': `
resources: [../base]
configMapGenerator: [{name: settings, behavior: merge, literals: [MODE=overlay]}]
patches:
  - path: patch.yaml
  - patch: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec: {replicas: 4}
`,
      'overlay/patch.yaml': `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      containers:
        - name: web
          env: [{name: B, value: "3"}, {name: C, value: "4"}]
`,
    });
    const objects = renderKustomization(join(dir, 'overlay')) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(objects.map((o) => o.kind)).toEqual(['Namespace', 'ConfigMap', 'Deployment']);
    const [ns, config, web] = objects;
    expect(ns.metadata).toEqual({ name: 'shop', labels: { team: 'a' } });
    expect(config.data).toEqual({ MODE: 'overlay', LEVEL: '1' });
    expect(config.metadata.name).toBe(`settings-${contentHash({ kind: 'ConfigMap', metadata: { name: 'settings' }, data: { MODE: 'overlay', LEVEL: '1' } })}`);
    expect(config.metadata.namespace).toBe('shop');
    expect(web.spec.replicas).toBe(4);
    expect(web.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(web.spec.template.metadata.labels).toEqual({ app: 'web', team: 'a' });
    const [container, sidecar] = web.spec.template.spec.containers;
    expect(container.image).toBe('registry.example/web:2.0');
    expect(sidecar.image).toBe('busybox');
    expect(container.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '3' },
      { name: 'C', value: '4' },
    ]);
    expect(container.envFrom[0].configMapRef.name).toBe(config.metadata.name);
    expect(web.spec.template.spec.volumes[0].configMap.name).toBe(config.metadata.name);
  });

  it('changes the generated name when the content changes', () => {
    const a = contentHash({ kind: 'ConfigMap', metadata: { name: 'x' }, data: { A: '1' } });
    const b = contentHash({ kind: 'ConfigMap', metadata: { name: 'x' }, data: { A: '2' } });
    expect(a).toMatch(/^[2-9b-df-z]{10}$/);
    expect(a).not.toBe(b);
    expect(contentHash({ kind: 'ConfigMap', metadata: { name: 'x' }, data: { A: '1', B: '2' } })).toBe(
      contentHash({ kind: 'ConfigMap', metadata: { name: 'x' }, data: { B: '2', A: '1' } }),
    );
  });

  it('refuses what it does not implement instead of ignoring it', () => {
    expect(() => renderKustomization(tree({ 'kustomization.yaml': 'resources: []\nnamePrefix: x-\n' }))).toThrow(/does not implement namePrefix/);
    expect(() => renderKustomization(tree({ 'kustomization.yaml': 'resources: []\ncommonLabels: {a: b}\n' }))).toThrow(/does not implement commonLabels/);
    expect(() =>
      renderKustomization(
        tree({
          'kustomization.yaml': 'resources: [web.yaml]\npatches: [{path: p.yaml}]\n',
          'web.yaml': deployment,
          'p.yaml': '- op: add\n  path: /spec/replicas\n  value: 2\n',
        }),
      ),
    ).toThrow(/JSON 6902/);
  });

  it('refuses a patch that matches nothing, a duplicate object, a file outside the root and a generator collision', () => {
    expect(() =>
      renderKustomization(
        tree({
          'kustomization.yaml': 'resources: [web.yaml]\npatches: [{path: p.yaml}]\n',
          'web.yaml': deployment,
          'p.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\n',
        }),
      ),
    ).toThrow(/matches 0 objects for Deployment\/api/);
    expect(() => renderKustomization(tree({ 'kustomization.yaml': 'resources: [a.yaml, b.yaml]\n', 'a.yaml': deployment, 'b.yaml': deployment }))).toThrow(
      /Deployment\/web is defined twice/,
    );
    const dir = tree({ 'inner/kustomization.yaml': 'resources: [../web.yaml]\n', 'web.yaml': deployment });
    expect(() => renderKustomization(join(dir, 'inner'))).toThrow(/outside the kustomization root/);
    expect(() => renderKustomization(tree({ 'kustomization.yaml': 'configMapGenerator: [{name: s, literals: [A=1, A=2]}]\n' }))).toThrow(
      /key A is given twice/,
    );
    expect(() => renderKustomization(tree({ 'kustomization.yaml': 'configMapGenerator: [{name: s, behavior: merge, literals: [A=1]}]\n' }))).toThrow(
      /no base generates it/,
    );
  });

  it('generates files under their base name and keeps cluster-scoped objects out of the namespace', () => {
    const objects = renderKustomization(
      tree({
        'kustomization.yaml':
          'namespace: n\nresources: [ns.yaml]\nconfigMapGenerator: [{name: conf, files: [etc/app.conf, other=etc/app.conf], options: {disableNameSuffixHash: true}}]\n',
        'etc/app.conf': 'include ./x.conf\n',
        'ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n',
      }),
    ) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(objects[0].metadata.namespace).toBeUndefined();
    expect(objects[1]).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'conf', namespace: 'n' },
      data: { 'app.conf': 'include ./x.conf\n', other: 'include ./x.conf\n' },
    });
  });
});

describe('parsing helpers', () => {
  it('reads env files verbatim and images with registries, ports, tags and digests', () => {
    expect(parseEnvFile('# c\nA=1\n\nB=x=y\nC=\n', 'f')).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(() => parseEnvFile('oops\n', 'f.env')).toThrow(/f.env:1/);
    expect(parseImage('registry:5000/team/app:1.2')).toEqual({ name: 'registry:5000/team/app', tag: '1.2', digest: undefined });
    expect(parseImage('app@sha256:abc')).toEqual({ name: 'app', digest: 'sha256:abc' });
  });
});
