import { beforeAll, describe, expect, it } from 'vitest';
import { findKubectl, kustomize, type K8sObject, type Target } from './deploy/kustomize';
import { unknownFieldProblems } from './deploy/known-fields';
import { validateAgainstSchema } from './deploy/kubernetes-schemas';
import {
  allProblems,
  APPS,
  egressProblems,
  environmentProblems,
  imageProblems,
  ingressProblems,
  keyRingProblems,
  managementApiPaths,
  migrationProblems,
  natsProblems,
  natsUserProblems,
  networkProblems,
  probeProblems,
  referenceProblems,
  resourceProblems,
  securityProblems,
  serviceProblems,
} from './deploy/policies';

/**
 * deploy/ as `kubectl kustomize` renders it (what `kubectl apply -k` sends),
 * checked against the Kubernetes schemas and the rules of test/deploy/policies.ts.
 * Without kubectl these tests are skipped, and their name says why.
 */
const kubectl = findKubectl();
const skipped = kubectl.available ? '' : ` (skipped: ${kubectl.why})`;
if (!kubectl.available) console.warn(`deploy manifests not checked: ${kubectl.why}`);

const NAMESPACES: Record<Target, string> = { base: 'meter', dev: 'meter-dev', prod: 'meter' };

const copy = (objects: K8sObject[]) => structuredClone(objects) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
const byId = (objects: any[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name); // eslint-disable-line @typescript-eslint/no-explicit-any
const containerOf = (objects: any[], name: string) => byId(objects, 'Deployment', name).spec.template.spec.containers[0]; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.skipIf(!kubectl.available)(`kubectl kustomize${skipped}`, () => {
  it('embeds kustomize v5, which deploy/ is written for', () => {
    expect(kubectl.available && kubectl.kustomizeVersion).toMatch(/^v5\./);
  });
});

describe.skipIf(!kubectl.available).each(['base', 'dev', 'prod'] as const)(`deploy/%s rendered by kubectl kustomize${skipped}`, (target) => {
  let objects: K8sObject[];
  beforeAll(async () => {
    objects = await kustomize(target);
  });

  it('renders the platform and its backing services', () => {
    const kinds = new Set(objects.map((o) => `${o.kind}/${o.metadata.name.replace(/-[a-z0-9]{10}$/, '')}`));
    for (const expected of [
      ...Object.keys(APPS).flatMap((app) => [`Deployment/${app}`, `Service/${app}`, `ServiceAccount/${app}`, `PodDisruptionBudget/${app}`]),
      'NetworkPolicy/integrations',
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
});

describe.skipIf(!kubectl.available)(`overlays${skipped}`, () => {
  let dev: any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  let prod: any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  beforeAll(async () => {
    [dev, prod] = await Promise.all([kustomize('dev'), kustomize('prod')]);
  });

  it('dev runs one replica of each service from the local image, prod three from the release', () => {
    for (const name of ['auth', 'vault', 'integrations', 'collectors']) {
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
    expect(byId(dev, 'Cluster', 'meter-postgres').spec.instances).toBe(1);
    expect(byId(prod, 'Cluster', 'meter-postgres').spec.instances).toBe(3);
  });

  it('merges the overlay configuration into the generated ConfigMap and points the pods at its hashed name', () => {
    const config = dev.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('meter-config-'));
    expect(config.data).toMatchObject({ LOG_LEVEL: 'debug', NODE_ENV: 'production', NATS_URL: 'nats://nats:4222' });
    expect(containerOf(dev, 'ingest').envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }]);
    const prodConfig = prod.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('meter-config-'));
    expect(prodConfig?.metadata.name).not.toBe(config.metadata.name);
  });

  it('publishes the hosts of each overlay', () => {
    const hosts = (objects: any[]) => byId(objects, 'Ingress', 'meter').spec.rules.map((r: { host: string }) => r.host); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(hosts(dev)).toEqual(['api.meter-dev.localhost', 'manage.meter-dev.localhost']);
    expect(hosts(prod)).toEqual(['api.meter.example.com', 'manage.meter.example.com']);
  });

  it("dev lets the three NATS servers share a node: its soft spread replaces the base's hard one", () => {
    const spread = (objects: any[]) => byId(objects, 'StatefulSet', 'nats').spec.template.spec.topologySpreadConstraints; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(spread(dev).map((c: { whenUnsatisfiable: string }) => c.whenUnsatisfiable)).toEqual(['ScheduleAnyway']);
    expect(spread(prod).map((c: { whenUnsatisfiable: string }) => c.whenUnsatisfiable)).toEqual(['DoNotSchedule']);
  });

  it('dev shrinks the NATS volume claim and keeps the labels the base gives it', () => {
    const claim = (objects: any[]) => byId(objects, 'StatefulSet', 'nats').spec.volumeClaimTemplates[0]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(claim(dev).metadata).toEqual(claim(prod).metadata);
    expect(claim(dev).metadata.labels).toMatchObject({ 'app.kubernetes.io/part-of': 'meter' });
    expect(claim(dev).spec.resources.requests.storage).toBe('1Gi');
    expect(claim(prod).spec.resources.requests.storage).toBe('10Gi');
  });
});

describe.skipIf(!kubectl.available)(`the checks catch what they promise to${skipped}`, () => {
  let prod: K8sObject[];
  beforeAll(async () => {
    prod = await kustomize('prod');
  });

  it('no rendered object has a field Kubernetes does not know, and a misspelt or mistyped one fails', async () => {
    const broken = copy(prod);
    const auth = byId(broken, 'Deployment', 'auth');
    auth.spec.template.spec.containers[0].readynessProbe = auth.spec.template.spec.containers[0].readinessProbe;
    byId(broken, 'Service', 'gateway').spec.ports[0].targetPort = true;
    byId(broken, 'HorizontalPodAutoscaler', 'ingest').spec.minReplica = 2;
    // One compilation for all: the three targets must give nothing, the broken copy exactly its three faults.
    const problems = unknownFieldProblems({ base: await kustomize('base'), dev: await kustomize('dev'), prod, broken });
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

  it('probes that give up before the readiness checks answer, restart a busy process or cut start-up short fail', () => {
    const objects = copy(prod);
    containerOf(objects, 'gateway').readinessProbe.timeoutSeconds = 1;
    containerOf(objects, 'auth').livenessProbe.failureThreshold = 1;
    delete containerOf(objects, 'ingest').startupProbe;
    expect(probeProblems(objects)).toEqual([
      'Deployment/gateway readiness probe times out after 1 s, before its 2 s checks',
      'Deployment/auth is restarted after 10 s without an answer, less than 30 s',
      'Deployment/ingest has no startup probe on /healthz allowing 60 s',
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

  it('HTTP to integrations or ingest from anything but the metrics scraper fails', () => {
    const objects = copy(prod);
    byId(objects, 'NetworkPolicy', 'integrations').spec.ingress.push({ from: [{ podSelector: {} }], ports: [{ port: 'http' }] });
    byId(objects, 'NetworkPolicy', 'ingest').spec.ingress[0].ports.push({ port: 9229 });
    expect(networkProblems(objects)).toEqual([
      'NetworkPolicy/ingest lets traffic reach the ingest on a port other than its metrics port',
      'NetworkPolicy/integrations lets something other than the monitoring namespace reach the integrations',
    ]);
  });

  it('a process the NATS or Postgres policy leaves out fails', () => {
    const objects = copy(prod);
    const values = (policy: string) => byId(objects, 'NetworkPolicy', policy).spec.ingress[0].from[0].podSelector.matchExpressions[0].values;
    byId(objects, 'NetworkPolicy', 'nats').spec.ingress[0].from[0].podSelector.matchExpressions[0].values = values('nats').filter(
      (v: string) => v !== 'integrations',
    );
    byId(objects, 'NetworkPolicy', 'postgres').spec.ingress[0].from[0].podSelector.matchExpressions[0].values = values('postgres').filter(
      (v: string) => v !== 'vault',
    );
    expect(networkProblems(objects)).toEqual(['no NetworkPolicy lets integrations reach NATS', 'no NetworkPolicy lets vault reach Postgres']);
  });

  it("integrations' egress to a private range, without a restriction, or without its servers fails", () => {
    expect(egressProblems(copy(prod))).toEqual([]);
    const leaky = copy(prod);
    const [v4, v6] = byId(leaky, 'NetworkPolicy', 'integrations').spec.egress[3].to;
    v4.ipBlock.except = v4.ipBlock.except.filter((range: string) => !['10.0.0.0/8', '169.254.0.0/16'].includes(range));
    v6.ipBlock.except = v6.ipBlock.except.filter((range: string) => range !== 'fc00::/7');
    expect(egressProblems(leaky)).toEqual([
      'NetworkPolicy/integrations lets traffic out to 10.0.0.0/8 (0.0.0.0/0 without it in except)',
      'NetworkPolicy/integrations lets traffic out to 169.254.0.0/16 (0.0.0.0/0 without it in except)',
      'NetworkPolicy/integrations lets traffic out to fc00::/7 (::/0 without it in except)',
    ]);
    // An except wider than the range still keeps it out; a narrower one does not.
    const narrow = copy(prod);
    const block = byId(narrow, 'NetworkPolicy', 'integrations').spec.egress[3].to[0].ipBlock;
    block.except = block.except.map((range: string) => (range === '172.16.0.0/12' ? '172.16.0.0/16' : range === '192.168.0.0/16' ? '192.0.0.0/8' : range));
    expect(egressProblems(narrow)).toEqual(['NetworkPolicy/integrations lets traffic out to 172.16.0.0/12 (0.0.0.0/0 without it in except)']);
    const open = copy(prod);
    byId(open, 'NetworkPolicy', 'integrations').spec.policyTypes = ['Ingress'];
    expect(egressProblems(open)).toEqual(['no NetworkPolicy restricts the egress of integrations, which calls URLs the organizations choose']);
    const cutOff = copy(prod);
    byId(cutOff, 'NetworkPolicy', 'integrations').spec.egress.splice(0, 3);
    expect(egressProblems(cutOff)).toEqual([
      'the egress of integrations does not reach Postgres',
      'the egress of integrations does not reach NATS',
      'the egress of integrations does not reach the cluster DNS',
    ]);
  });

  it('a key ring its holder lacks, or takes optionally, fails', () => {
    const objects = copy(prod);
    expect(keyRingProblems(objects)).toEqual([]);
    containerOf(objects, 'integrations').env = containerOf(objects, 'integrations').env.filter((e: { name: string }) => e.name !== 'WEBHOOK_SECRET_KEYRING');
    containerOf(objects, 'auth').env.find((e: { name: string }) => e.name === 'CREDENTIAL_KEYRING').valueFrom.secretKeyRef.optional = true;
    expect(keyRingProblems(objects)).toEqual([
      'Deployment/auth takes CREDENTIAL_KEYRING optionally; it cannot start without it',
      'Deployment/integrations does not get WEBHOOK_SECRET_KEYRING from a Secret',
    ]);
  });

  it('a route of the management API the Ingress does not publish fails', () => {
    expect(managementApiPaths()).toEqual(expect.arrayContaining(['/login', '/org-api-credentials/{id}', '/organization-vault/{id}']));
    const objects = copy(prod);
    const rule = byId(objects, 'Ingress', 'meter').spec.rules[1];
    rule.http.paths = rule.http.paths.filter((p: { path: string }) => p.path !== '/organization-vault');
    expect(ingressProblems(objects)).toEqual([
      'no Ingress path publishes /organization-vault of the management API ({management_url})',
      'no Ingress path publishes /organization-vault/{id} of the management API ({management_url})',
    ]);
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
      ...['VAULT', 'AUTH', 'INTEGRATION', 'GATEWAY', 'INGEST', 'COLLECTORS'].map(
        (user) => `nats.conf reads $${user}_NATS_PASSWORD, which the nats container is not given`,
      ),
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
    expect(migrationProblems(copy(prod).filter((o) => o.kind !== 'Job'))).toEqual(['no Job runs node dist/apps/cli/src/main.js migrate']);
  });
});
