import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { renderKustomization, renderYaml, targetDir, type K8sObject, type Target } from '../scripts/deploy/kustomize';
import { unknownFieldProblems } from './deploy/known-fields';
import { validateAgainstSchema } from './deploy/kubernetes-schemas';
import {
  allProblems,
  environmentProblems,
  imageProblems,
  ingressProblems,
  migrationProblems,
  natsProblems,
  natsUserProblems,
  networkProblems,
  referenceProblems,
  resourceProblems,
  securityProblems,
  serviceProblems,
} from './deploy/policies';

const NAMESPACES: Record<Target, string> = { base: 'meter', dev: 'meter-dev', prod: 'meter' };

const render = (target: Target) => renderKustomization(targetDir(target));
const copy = (objects: K8sObject[]) => structuredClone(objects) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
const byId = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name); // eslint-disable-line @typescript-eslint/no-explicit-any
const containerOf = (objects: any[], name: string) => byId(objects, 'Deployment', name).spec.template.spec.containers[0]; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(['base', 'dev', 'prod'] as const)('deploy/%s', (target) => {
  const objects = render(target);

  it('renders the platform and its backing services', () => {
    const kinds = new Set(objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`));
    for (const expected of [
      'Deployment/gateway',
      'Deployment/auth',
      'Deployment/vault',
      'Deployment/ingest',
      'Service/gateway',
      'Service/auth',
      'HorizontalPodAutoscaler/gateway',
      'HorizontalPodAutoscaler/ingest',
      'Ingress/meter',
      'ConfigMap/meter-config',
      'Job/migrate',
      'StatefulSet/nats',
      'ConfigMap/nats-config',
      'Cluster/meter-postgres',
      'Deployment/redis',
      'NetworkPolicy/default-deny-ingress',
      'PodDisruptionBudget/nats',
    ]) {
      expect(kinds, expected).toContain(expected);
    }
  });

  it('validates every object against its Kubernetes schema', () => {
    const failures = objects.flatMap((o) => {
      try {
        validateAgainstSchema(o);
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
    expect(failures).toEqual([]);
  });

  it('keeps every promise of deploy/ (probes, resources, non-root, references, env, network, ingress, NATS)', () => {
    expect(allProblems(objects, NAMESPACES[target], { platformImageNamed: target !== 'base' })).toEqual([]);
  });

  it('renders the same YAML every time, which reads back (as YAML 1.1, like kubectl) to the same objects', () => {
    const text = renderYaml(targetDir(target));
    expect(renderYaml(targetDir(target))).toBe(text);
    expect(parseAllDocuments(text, { version: '1.1' }).map((d) => d.toJS())).toEqual(objects);
  });
});

describe('overlays', () => {
  it('dev runs one replica of each service from the local image, prod three from the release', () => {
    const dev = render('dev');
    const prod = render('prod');
    for (const name of ['auth', 'vault']) {
      expect(byId(dev, 'Deployment', name).spec.replicas).toBe(1);
      expect(byId(prod, 'Deployment', name).spec.replicas).toBe(3);
    }
    for (const name of ['gateway', 'ingest']) {
      expect(byId(prod, 'Deployment', name).spec.replicas, 'the HPA owns the count').toBeUndefined();
      expect(byId(dev, 'HorizontalPodAutoscaler', name).spec.minReplicas).toBe(1);
      expect(byId(prod, 'HorizontalPodAutoscaler', name).spec.minReplicas).toBe(3);
    }
    expect(containerOf(dev, 'gateway').image).toBe('meter-platform:dev');
    expect(containerOf(prod, 'gateway').image).toMatch(/^ghcr\.io\/meter-platform\/meter:\d+\.\d+\.\d+$/);
    expect((byId(dev, 'Cluster', 'meter-postgres') as any).spec.instances).toBe(1); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect((byId(prod, 'Cluster', 'meter-postgres') as any).spec.instances).toBe(3); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('merges the overlay configuration into the generated ConfigMap and points the pods at its hashed name', () => {
    const dev = render('dev');
    const config = dev.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('meter-config-')) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(config.data).toMatchObject({ LOG_LEVEL: 'debug', NODE_ENV: 'production', NATS_URL: 'nats://nats:4222' });
    expect(containerOf(dev, 'ingest').envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
    const prodConfig = render('prod').find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('meter-config-'));
    expect(prodConfig?.metadata.name).not.toBe(config.metadata.name);
  });

  it('publishes the hosts of each overlay', () => {
    const hosts = (objects: any[]) => byId(objects, 'Ingress', 'meter').spec.rules.map((r: { host: string }) => r.host); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(hosts(render('dev'))).toEqual(['api.meter-dev.localhost', 'manage.meter-dev.localhost']);
    expect(hosts(render('prod'))).toEqual(['api.meter.example.com', 'manage.meter.example.com']);
  });
});

describe('the checks catch what they promise to', () => {
  const prod = render('prod');

  it('no rendered object has a field Kubernetes does not know, and a misspelt or mistyped one fails', () => {
    const broken = copy(prod);
    const auth = byId(broken, 'Deployment', 'auth');
    auth.spec.template.spec.containers[0].readynessProbe = auth.spec.template.spec.containers[0].readinessProbe;
    byId(broken, 'Service', 'gateway').spec.ports[0].targetPort = true;
    byId(broken, 'HorizontalPodAutoscaler', 'ingest').spec.minReplica = 2;
    // One compilation for all: the three targets must give nothing, the broken copy exactly its three faults.
    const problems = unknownFieldProblems({ base: render('base'), dev: render('dev'), prod, broken });
    expect(problems).toEqual([
      expect.stringMatching(/^broken: Service\/gateway: Type 'true' is not assignable/),
      expect.stringMatching(/^broken: Deployment\/auth: .*'"readynessProbe"' does not exist/),
      expect.stringMatching(/^broken: HorizontalPodAutoscaler\/ingest: .*'"minReplica"' does not exist/),
    ]);
  }, 120_000);

  it('an unknown kind or apiVersion has no schema and fails', () => {
    expect(() => validateAgainstSchema({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toThrow(
      /unknown kind example\.com\/v1\/Widget/,
    );
    expect(() => validateAgainstSchema({ apiVersion: 'apps/v1beta1', kind: 'Deployment', metadata: { name: 'd' } })).toThrow(/unknown kind/);
  });

  it('a field of the wrong type fails the Kubernetes schema', () => {
    const objects = copy(prod);
    byId(objects, 'Deployment', 'gateway').spec.replicas = 'three';
    expect(() => validateAgainstSchema(byId(objects, 'Deployment', 'gateway'))).toThrow(/Deployment\/gateway/);
  });

  it('a misspelt or out-of-range field of the CNPG Cluster fails its committed schema', () => {
    const objects = copy(prod);
    byId(objects, 'Cluster', 'meter-postgres').spec.instance = 3;
    expect(() => validateAgainstSchema(byId(objects, 'Cluster', 'meter-postgres'))).toThrow(/instance/);
    const zero = copy(prod);
    byId(zero, 'Cluster', 'meter-postgres').spec.instances = 0;
    expect(() => validateAgainstSchema(byId(zero, 'Cluster', 'meter-postgres'))).toThrow(/spec\.instances/);
  });

  it('a missing probe fails', () => {
    const objects = copy(prod);
    delete containerOf(objects, 'auth').readinessProbe;
    containerOf(objects, 'ingest').livenessProbe.httpGet.path = '/readyz';
    expect(serviceProblems(objects)).toEqual([
      'Deployment/auth has no readiness probe on /readyz:8081',
      'Deployment/ingest has no liveness probe on /healthz:8083',
    ]);
  });

  it('a container that may run as root fails', () => {
    const objects = copy(prod);
    const gateway = byId(objects, 'Deployment', 'gateway').spec.template.spec;
    delete gateway.securityContext.runAsNonRoot;
    delete gateway.containers[0].securityContext.runAsNonRoot;
    byId(objects, 'StatefulSet', 'nats').spec.template.spec.securityContext.runAsUser = 0;
    const problems = securityProblems(objects);
    expect(problems).toContain('Deployment/gateway container gateway may run as root (runAsNonRoot is not true)');
    expect(problems).toContain('StatefulSet/nats container nats runs as root (runAsUser 0)');
  });

  it('a workload without resources fails', () => {
    const objects = copy(prod);
    delete containerOf(objects, 'vault').resources;
    delete byId(objects, 'Job', 'migrate').spec.template.spec.containers[0].resources.limits;
    expect(resourceProblems(objects)).toEqual([
      'Deployment/vault container vault has no resources.requests.cpu, resources.requests.memory, resources.limits.memory',
      'Job/migrate container migrate has no resources.limits.memory',
    ]);
  });

  it('a grace period shorter than the graceful stop fails', () => {
    const objects = copy(prod);
    byId(objects, 'Deployment', 'gateway').spec.template.spec.terminationGracePeriodSeconds = 10;
    expect(serviceProblems(objects)).toEqual([expect.stringMatching(/^Deployment\/gateway is killed after 10 s/)]);
  });

  it('a dangling reference fails', () => {
    const objects = copy(prod);
    byId(objects, 'Service', 'auth').spec.selector = { 'app.kubernetes.io/name': 'nobody' };
    byId(objects, 'HorizontalPodAutoscaler', 'ingest').spec.scaleTargetRef.name = 'ingester';
    const problems = referenceProblems(objects);
    expect(problems).toContain('Service/auth selects no pods');
    expect(problems).toContain('HorizontalPodAutoscaler/ingest scales missing Deployment/ingester');
    expect(problems).toContain('no HorizontalPodAutoscaler for ingest');
  });

  it('a key ring in the wrong process, an unknown variable or a bad value fails', () => {
    const objects = copy(prod);
    containerOf(objects, 'ingest').env.push({
      name: 'VAULT_ROOT_KEYRING',
      valueFrom: { secretKeyRef: { name: 'meter-vault-root-keyring', key: 'VAULT_ROOT_KEYRING' } },
    });
    containerOf(objects, 'gateway').env.push({ name: 'GATEWAY_PROT', value: '8080' });
    containerOf(objects, 'auth').env.push({ name: 'LOG_LEVEL', value: 'verbose' });
    const problems = environmentProblems(objects);
    expect(problems).toContain('Deployment/ingest container ingest holds VAULT_ROOT_KEYRING, which only vault may hold');
    expect(problems).toContain('Deployment/gateway container gateway sets GATEWAY_PROT, which the config schema does not know');
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^Deployment\/auth container auth: invalid configuration: LOG_LEVEL/)]));
  });

  it('a committed Secret fails', () => {
    const objects = copy(prod);
    objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'oops', namespace: 'meter' }, data: { k: 'c2VjcmV0' } });
    expect(environmentProblems(objects)).toEqual(['Secret/oops: secrets are never committed; reference one created out of band']);
  });

  it('HTTP to the vault beyond its metrics port, or from outside monitoring, fails', () => {
    const objects = copy(prod);
    byId(objects, 'NetworkPolicy', 'vault').spec.ingress.push({
      from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'auth' } } }],
      ports: [{ port: 8082 }],
    });
    expect(networkProblems(objects)).toEqual(['NetworkPolicy/vault lets something other than the monitoring namespace reach the vault']);
    const open = copy(prod);
    byId(open, 'NetworkPolicy', 'vault').spec.ingress[0].ports = [];
    expect(networkProblems(open)).toEqual(['NetworkPolicy/vault lets traffic reach the vault on a port other than its metrics port']);
    const noDeny = copy(prod).filter((o) => o.metadata.name !== 'default-deny-ingress');
    expect(networkProblems(noDeny)).toEqual(['no default-deny ingress NetworkPolicy']);
  });

  it('publishing the vault or the metrics through the Ingress fails', () => {
    const objects = copy(prod);
    const paths = byId(objects, 'Ingress', 'meter').spec.rules[0].http.paths;
    paths.push({ path: '/', pathType: 'Prefix', backend: { service: { name: 'gateway', port: { name: 'http' } } } });
    paths.push({ path: '/vault', pathType: 'Prefix', backend: { service: { name: 'vault', port: { name: 'http' } } } });
    expect(ingressProblems(objects)).toEqual(['Ingress/meter publishes / (probes and metrics)', 'Ingress/meter publishes vault']);
  });

  it('NATS without the vault permissions include, or with fewer servers, fails', () => {
    const objects = copy(prod);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config-'));
    config.data['nats.conf'] = config.data['nats.conf'].replace(/^include .*$/m, '');
    byId(objects, 'StatefulSet', 'nats').spec.replicas = 1;
    expect(natsProblems(objects)).toEqual([
      'StatefulSet/nats has 1 servers, not 3',
      'nats.conf does not include ./vault-permissions.conf',
      'nats.conf lists 3 routes for 1 servers',
    ]);
  });

  it("NATS without its users' passwords, or a process logging in as no user or with another's password, fails", () => {
    const objects = copy(prod);
    expect(natsUserProblems(objects)).toEqual([]);
    delete byId(objects, 'StatefulSet', 'nats').spec.template.spec.containers[0].envFrom;
    containerOf(objects, 'gateway').env = containerOf(objects, 'gateway').env.filter((e: { name: string }) => e.name !== 'NATS_USER');
    containerOf(objects, 'ingest').env.find((e: { name: string }) => e.name === 'NATS_PASSWORD').valueFrom.secretKeyRef.key = 'VAULT_NATS_PASSWORD';
    expect(natsUserProblems(objects)).toEqual([
      ...['VAULT', 'AUTH', 'INTEGRATION', 'GATEWAY', 'INGEST'].map((user) => `nats.conf reads $${user}_NATS_PASSWORD, which the nats container is not given`),
      'Deployment/gateway logs in to NATS as nobody, not a user of vault-permissions.conf',
      'Deployment/ingest logs in to NATS as ingest with VAULT_NATS_PASSWORD, not INGEST_NATS_PASSWORD',
    ]);
  });

  it('a literal password in the NATS configuration fails', () => {
    const objects = copy(prod);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config-'));
    config.data['vault-permissions.conf'] =
      'authorization {\n  users: [\n    { user: vault, password: s3cret }\n    { user: auth, password: $AUTH_NATS_PASSWORD }\n  ]\n}\n';
    expect(natsProblems(objects)).toEqual([
      `ConfigMap/${config.metadata.name} vault-permissions.conf holds a literal credential; reference an environment variable ($NAME) or use nkeys`,
    ]);
    config.data['vault-permissions.conf'] = config.data['vault-permissions.conf'].replace('s3cret', '$VAULT_NATS_PASSWORD');
    expect(natsProblems(objects)).toEqual([]);
  });

  it('an unpinned image fails', () => {
    const objects = copy(prod);
    containerOf(objects, 'gateway').image = 'ghcr.io/meter-platform/meter:latest';
    byId(objects, 'Deployment', 'redis').spec.template.spec.containers[0].image = 'redis';
    expect(imageProblems(objects, { platformImageNamed: true })).toEqual([
      'Deployment/gateway container gateway runs an unpinned image ghcr.io/meter-platform/meter:latest',
      'Deployment/redis container redis runs an unpinned image redis',
    ]);
  });

  it('no migration Job fails', () => {
    expect(migrationProblems(copy(prod).filter((o) => o.kind !== 'Job'))).toEqual(['no Job runs node dist/scripts/migrate.js']);
  });
});
