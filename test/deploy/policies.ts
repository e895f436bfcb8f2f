import { envSchema } from '@meter/config';
import { containersOf, type K8sObject } from '../../scripts/deploy/kustomize';

/**
 * What deploy/ promises beyond schema validity: every rule is one function that
 * returns the problems it finds, so a test can show each one failing.
 */
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const APPS = { gateway: 8080, auth: 8081, vault: 8082, ingest: 8083 } as const;
export type AppName = keyof typeof APPS;

/** Secrets deploy/ refers to but does not contain: CNPG creates the first, operators the others. */
export const EXTERNAL_SECRETS: Record<string, string[]> = {
  'meter-postgres-app': ['uri'],
  'meter-credential-keyring': ['CREDENTIAL_KEYRING'],
  'meter-vault-root-keyring': ['VAULT_ROOT_KEYRING'],
  'meter-nats-users': ['VAULT_NATS_PASSWORD', 'AUTH_NATS_PASSWORD', 'INTEGRATION_NATS_PASSWORD', 'GATEWAY_NATS_PASSWORD', 'INGEST_NATS_PASSWORD'],
};

/** Which process may hold which key ring (docs/keys.md). */
const KEYRING_HOLDERS: Record<string, string[]> = {
  CREDENTIAL_KEYRING: ['gateway', 'auth'],
  VAULT_ROOT_KEYRING: ['vault'],
};

const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

function podSpecOf(o: Obj): Obj | undefined {
  if (o.kind === 'CronJob') return o.spec?.jobTemplate?.spec?.template?.spec;
  return o.spec?.template?.spec;
}

function podLabelsOf(o: Obj): Record<string, string> {
  return (o.kind === 'CronJob' ? o.spec?.jobTemplate?.spec?.template?.metadata?.labels : o.spec?.template?.metadata?.labels) ?? {};
}

function id(o: K8sObject): string {
  return `${o.kind}/${o.metadata.name}`;
}

function find(objects: K8sObject[], kind: string, name: string): Obj | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  return !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
}

export function resourceProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => WORKLOADS.has(o.kind))
    .flatMap((o) =>
      containersOf(o).flatMap((c: Obj) => {
        const missing = ['requests.cpu', 'requests.memory', 'limits.memory'].filter((path) => {
          const [a, b] = path.split('.');
          return !c.resources?.[a]?.[b];
        });
        return missing.length ? [`${id(o)} container ${c.name} has no resources.${missing.join(', resources.')}`] : [];
      }),
    );
}

export function securityProblems(objects: K8sObject[]): string[] {
  return objects
    .filter((o) => WORKLOADS.has(o.kind))
    .flatMap((o) => {
      const pod = podSpecOf(o) ?? {};
      const podContext = pod.securityContext ?? {};
      const problems: string[] = [];
      if (pod.hostNetwork || pod.hostPID || pod.hostIPC) problems.push(`${id(o)} shares a host namespace`);
      if (pod.automountServiceAccountToken !== false) problems.push(`${id(o)} mounts a service account token it does not need`);
      for (const c of containersOf(o) as Obj[]) {
        const sc = c.securityContext ?? {};
        const nonRoot = sc.runAsNonRoot ?? podContext.runAsNonRoot;
        const user = sc.runAsUser ?? podContext.runAsUser;
        if (nonRoot !== true) problems.push(`${id(o)} container ${c.name} may run as root (runAsNonRoot is not true)`);
        if (user === 0) problems.push(`${id(o)} container ${c.name} runs as root (runAsUser 0)`);
        if (sc.privileged) problems.push(`${id(o)} container ${c.name} is privileged`);
        if (sc.allowPrivilegeEscalation !== false) problems.push(`${id(o)} container ${c.name} allows privilege escalation`);
        if (sc.readOnlyRootFilesystem !== true) problems.push(`${id(o)} container ${c.name} has a writable root filesystem`);
        if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${id(o)} container ${c.name} does not drop ALL capabilities`);
        if ((sc.seccompProfile ?? podContext.seccompProfile)?.type !== 'RuntimeDefault') problems.push(`${id(o)} container ${c.name} has no RuntimeDefault seccomp profile`);
      }
      return problems;
    });
}

function probeOn(probe: Obj | undefined, path: string, port: string | number): boolean {
  return probe?.httpGet?.path === path && probe.httpGet.port === port;
}

/** The four services: probes on /readyz and /healthz, their port, a grace period that covers the graceful stop. */
export function serviceProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const config = configData(objects);
  const shutdownSeconds = Number(config.SHUTDOWN_TIMEOUT_MS ?? 10_000) / 1000;
  for (const [name, port] of Object.entries(APPS)) {
    const deployment = find(objects, 'Deployment', name);
    if (!deployment) {
      problems.push(`no Deployment ${name}`);
      continue;
    }
    const pod = podSpecOf(deployment) ?? {};
    const container = (pod.containers ?? []).find((c: Obj) => c.name === name);
    if (!container) {
      problems.push(`Deployment/${name} has no container ${name}`);
      continue;
    }
    const portName = (container.ports ?? []).find((p: Obj) => p.containerPort === port)?.name;
    if (!portName) problems.push(`Deployment/${name} does not expose port ${port}`);
    const on = portName ?? port;
    if (!probeOn(container.readinessProbe, '/readyz', on)) problems.push(`Deployment/${name} has no readiness probe on /readyz:${port}`);
    if (!probeOn(container.livenessProbe, '/healthz', on)) problems.push(`Deployment/${name} has no liveness probe on /healthz:${port}`);
    const app = (container.env ?? []).find((e: Obj) => e.name === 'APP')?.value;
    if (app !== name) problems.push(`Deployment/${name} runs APP=${app}`);
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const sleep = Array.isArray(preStop) && preStop[0] === 'sleep' ? Number(preStop[1]) : 0;
    const grace = pod.terminationGracePeriodSeconds ?? 30;
    if (grace < sleep + shutdownSeconds) {
      problems.push(`Deployment/${name} is killed after ${grace} s, before preStop (${sleep} s) and SHUTDOWN_TIMEOUT_MS (${shutdownSeconds} s) end`);
    }
    const service = find(objects, 'Service', name);
    if (!service) problems.push(`no Service ${name}`);
    else if (!matches(service.spec?.selector, podLabelsOf(deployment))) problems.push(`Service/${name} does not select the ${name} pods`);
  }
  return problems;
}

/** Every Service selects pods and targets a port they declare; HPAs and PDBs point at something real. */
export function referenceProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const workloads = objects.filter((o) => WORKLOADS.has(o.kind)) as Obj[];
  for (const service of objects.filter((o) => o.kind === 'Service') as Obj[]) {
    const selected = workloads.filter((w) => matches(service.spec?.selector, podLabelsOf(w)));
    if (!selected.length) {
      problems.push(`Service/${service.metadata.name} selects no pods`);
      continue;
    }
    for (const port of service.spec?.ports ?? []) {
      if (typeof port.targetPort !== 'string') continue;
      const declared = selected.some((w) => containersOf(w as K8sObject).some((c: Obj) => (c.ports ?? []).some((p: Obj) => p.name === port.targetPort)));
      if (!declared) problems.push(`Service/${service.metadata.name} targets port ${port.targetPort}, which its pods do not declare`);
    }
  }
  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler') as Obj[]) {
    const target = hpa.spec?.scaleTargetRef;
    if (!find(objects, target?.kind, target?.name)) problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name} scales missing ${target?.kind}/${target?.name}`);
    if (hpa.spec?.minReplicas > hpa.spec?.maxReplicas) problems.push(`HorizontalPodAutoscaler/${hpa.metadata.name} has minReplicas > maxReplicas`);
  }
  for (const pdb of objects.filter((o) => o.kind === 'PodDisruptionBudget') as Obj[]) {
    if (!workloads.some((w) => matches(pdb.spec?.selector?.matchLabels, podLabelsOf(w)))) problems.push(`PodDisruptionBudget/${pdb.metadata.name} selects no pods`);
  }
  for (const name of ['gateway', 'ingest']) {
    if (!objects.some((o: Obj) => o.kind === 'HorizontalPodAutoscaler' && o.spec?.scaleTargetRef?.name === name)) problems.push(`no HorizontalPodAutoscaler for ${name}`);
  }
  for (const name of Object.keys(APPS)) {
    const deployment = find(objects, 'Deployment', name);
    if (deployment && !objects.some((o: Obj) => o.kind === 'PodDisruptionBudget' && matches(o.spec?.selector?.matchLabels, podLabelsOf(deployment)))) {
      problems.push(`no PodDisruptionBudget for ${name}`);
    }
  }
  return problems;
}

function configMaps(objects: K8sObject[]): Obj[] {
  return objects.filter((o) => o.kind === 'ConfigMap');
}

/** The data of the generated meter-config ConfigMap (its name carries a hash suffix). */
export function configData(objects: K8sObject[]): Record<string, string> {
  return configMaps(objects).find((c) => /^meter-config(-[a-z0-9]{10})?$/.test(c.metadata.name))?.data ?? {};
}

/**
 * The environment of each container that runs our image, as the pod would see
 * it (ConfigMaps resolved, Secrets replaced by a well-formed stand-in), passes
 * the config schema the process validates at start, names no variable the
 * schema does not know, and holds only the key rings that process may hold.
 */
export function environmentProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const known = new Set([...Object.keys(envSchema.shape), 'APP']);
  const standIn: Record<string, string> = {
    uri: 'postgresql://meter:secret@meter-postgres-rw:5432/meter',
    CREDENTIAL_KEYRING: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    VAULT_ROOT_KEYRING: 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
  };
  for (const o of objects.filter((x) => WORKLOADS.has(x.kind))) {
    for (const c of containersOf(o) as Obj[]) {
      if (!String(c.image).includes('meter')) continue;
      const env: Record<string, string> = {};
      const where = `${id(o)} container ${c.name}`;
      for (const from of c.envFrom ?? []) {
        const map = configMaps(objects).find((m) => m.metadata.name === from.configMapRef?.name);
        if (!map) problems.push(`${where} reads missing ConfigMap ${from.configMapRef?.name ?? JSON.stringify(from)}`);
        else Object.assign(env, map.data);
      }
      for (const variable of c.env ?? []) {
        const secret = variable.valueFrom?.secretKeyRef;
        if (secret) {
          if (!EXTERNAL_SECRETS[secret.name]?.includes(secret.key)) problems.push(`${where} reads unknown Secret key ${secret.name}/${secret.key}`);
          env[variable.name] = standIn[secret.key] ?? 'stand-in';
          const holders = KEYRING_HOLDERS[variable.name];
          const app = (c.env ?? []).find((e: Obj) => e.name === 'APP')?.value ?? c.name;
          if (holders && !holders.includes(app)) problems.push(`${where} holds ${variable.name}, which only ${holders.join(' and ')} may hold`);
        } else if (variable.valueFrom) {
          problems.push(`${where} takes ${variable.name} from an unsupported source`);
        } else {
          env[variable.name] = variable.value ?? '';
        }
      }
      for (const name of Object.keys(env)) if (!known.has(name)) problems.push(`${where} sets ${name}, which the config schema does not know`);
      const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
      const parsed = envSchema.safeParse(cleaned);
      if (!parsed.success) problems.push(`${where}: invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      else if (parsed.data.NODE_ENV === 'production' && !env.DATABASE_URL) problems.push(`${where} has no DATABASE_URL`);
    }
  }
  for (const secret of objects.filter((o) => o.kind === 'Secret')) problems.push(`${id(secret)}: secrets are never committed; reference one created out of band`);
  return problems;
}

/** Default deny, and the vault reachable on its metrics port from the monitoring namespace only. */
export function networkProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as Obj[];
  const denyAll = policies.some(
    (p) => Object.keys(p.spec?.podSelector ?? {}).length === 0 && p.spec?.policyTypes?.includes('Ingress') && !(p.spec?.ingress ?? []).length,
  );
  if (!denyAll) problems.push('no default-deny ingress NetworkPolicy');
  const vault = find(objects, 'Deployment', 'vault');
  if (vault) {
    const labels = podLabelsOf(vault);
    const applying = policies.filter((p) => Object.keys(p.spec?.podSelector ?? {}).length === 0 || matches(p.spec?.podSelector?.matchLabels, labels));
    const container = (podSpecOf(vault)?.containers ?? []).find((c: Obj) => c.name === 'vault') ?? {};
    const metricsPortName = (container.ports ?? []).find((p: Obj) => p.containerPort === APPS.vault)?.name;
    for (const policy of applying) {
      for (const rule of policy.spec?.ingress ?? []) {
        const ports = (rule.ports ?? []).map((p: Obj) => p.port);
        if (!ports.length || ports.some((p: unknown) => p !== metricsPortName && p !== APPS.vault)) {
          problems.push(`NetworkPolicy/${policy.metadata.name} lets traffic reach the vault on a port other than its metrics port`);
        }
        const peers = rule.from ?? [];
        const onlyMonitoring =
          peers.length > 0 && peers.every((peer: Obj) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring' && !peer.podSelector && !peer.ipBlock);
        if (!onlyMonitoring) problems.push(`NetworkPolicy/${policy.metadata.name} lets something other than the monitoring namespace reach the vault`);
      }
    }
  }
  return problems;
}

/** {base_url} goes to the gateway, {management_url} to auth, and nothing else (no probes, no metrics) is published. */
export function ingressProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const ingresses = objects.filter((o) => o.kind === 'Ingress') as Obj[];
  const backends = new Set<string>();
  for (const ingress of ingresses) {
    for (const rule of ingress.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const service = path.backend?.service;
        backends.add(service?.name);
        if (!['gateway', 'auth'].includes(service?.name)) problems.push(`Ingress/${ingress.metadata.name} publishes ${service?.name}`);
        if (/^\/(metrics|healthz|readyz)?$/.test(path.path) && path.pathType !== 'Exact') problems.push(`Ingress/${ingress.metadata.name} publishes ${path.path} (probes and metrics)`);
        const target = find(objects, 'Service', service?.name);
        if (!target) problems.push(`Ingress/${ingress.metadata.name} points at missing Service ${service?.name}`);
        else if (!(target.spec?.ports ?? []).some((p: Obj) => p.name === service.port?.name || p.port === service.port?.number)) {
          problems.push(`Ingress/${ingress.metadata.name} points at a port Service/${service.name} does not have`);
        }
      }
    }
  }
  const gatewayPaths = ingresses.flatMap((i) => (i.spec?.rules ?? []).flatMap((r: Obj) => (r.http?.paths ?? []).filter((p: Obj) => p.backend?.service?.name === 'gateway').map((p: Obj) => p.path)));
  if (!gatewayPaths.includes('/meter/v1')) problems.push('no Ingress path /meter/v1 to the gateway ({base_url})');
  const authPaths = ingresses.flatMap((i) => (i.spec?.rules ?? []).flatMap((r: Obj) => (r.http?.paths ?? []).filter((p: Obj) => p.backend?.service?.name === 'auth').map((p: Obj) => p.path)));
  for (const path of ['/login', '/org-api-credentials', '/organization-vault']) {
    if (!authPaths.includes(path)) problems.push(`no Ingress path ${path} to auth ({management_url})`);
  }
  return problems;
}

/** The nats StatefulSet and the ConfigMap it mounts its configuration from, when there are. */
function natsWithConfig(objects: K8sObject[]): { nats: Obj | undefined; config: Obj | undefined } {
  const nats = find(objects, 'StatefulSet', 'nats');
  const volume = (podSpecOf(nats ?? {})?.volumes ?? []).find((v: Obj) => v.configMap);
  return { nats, config: configMaps(objects).find((c) => c.metadata.name === volume?.configMap?.name) };
}

/** NATS: a 3-node JetStream cluster whose config includes the vault's permissions file. */
export function natsProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const { nats, config } = natsWithConfig(objects);
  if (!nats) return ['no StatefulSet nats'];
  if (nats.spec?.replicas !== 3) problems.push(`StatefulSet/nats has ${nats.spec?.replicas} servers, not 3`);
  if (!config) return [...problems, 'StatefulSet/nats mounts no ConfigMap with its configuration'];
  const conf: string = config.data?.['nats.conf'] ?? '';
  if (!config.data?.['vault-permissions.conf'] && config.data?.['vault-permissions.conf'] !== '') problems.push(`ConfigMap/${config.metadata.name} has no vault-permissions.conf`);
  if (!/^include\s+["']?\.\/vault-permissions\.conf["']?\s*$/m.test(conf)) problems.push('nats.conf does not include ./vault-permissions.conf');
  // A ConfigMap is no place for a secret: passwords and tokens come from the environment ($VAR) or are nkeys.
  for (const [key, text] of Object.entries(config.data ?? {}) as [string, string][]) {
    if (/\b(password|pass|token|auth_token)\s*[:=]\s*["']?(?!\$)[^\s"',}]+/im.test(text.replace(/#.*$/gm, ''))) {
      problems.push(`ConfigMap/${config.metadata.name} ${key} holds a literal credential; reference an environment variable ($NAME) or use nkeys`);
    }
  }
  if (!/^jetstream\s*\{/m.test(conf)) problems.push('nats.conf does not enable JetStream');
  const routes = conf.match(/nats:\/\/nats-\d+\.nats-headless:6222/g) ?? [];
  if (routes.length !== nats.spec?.replicas) problems.push(`nats.conf lists ${routes.length} routes for ${nats.spec?.replicas} servers`);
  const args: string[] = (podSpecOf(nats)?.containers ?? [])[0]?.command ?? [];
  if (!args.includes('/etc/nats/nats.conf')) problems.push('the nats container does not start with /etc/nats/nats.conf');
  return problems;
}

/**
 * NATS users: every `$NAME` the server's configuration reads reaches the nats container (from its env or
 * a Secret deploy/ knows), else nats-server refuses the configuration; and every process of ours logs in
 * as a user of vault-permissions.conf (NATS_USER) with that user's password variable (NATS_PASSWORD).
 */
export function natsUserProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const { nats, config } = natsWithConfig(objects);
  if (!nats || !config) return problems; // natsProblems reports these
  const text = Object.values(config.data ?? {})
    .map((t) => String(t).replace(/#.*$/gm, ''))
    .join('\n');
  const container = (podSpecOf(nats)?.containers ?? [])[0] ?? {};
  const provided = new Set<string>((container.env ?? []).map((e: Obj) => e.name));
  for (const from of container.envFrom ?? []) for (const key of EXTERNAL_SECRETS[from.secretRef?.name] ?? []) provided.add(key);
  // References outside quoted strings to names the configuration does not define itself (`VAULT = {...}`).
  const unquoted = text.replace(/"[^"]*"/g, '""');
  const defined = new Set([...unquoted.matchAll(/^\s*([A-Za-z_]\w*)\s*[=:]/gm)].map((m) => m[1]));
  for (const name of new Set([...unquoted.matchAll(/\$([A-Za-z_]\w*)/g)].map((m) => m[1]))) {
    if (!defined.has(name) && !provided.has(name)) problems.push(`nats.conf reads $${name}, which the nats container is not given`);
  }
  const passwordOf = new Map([...text.matchAll(/user:\s*(\w+),\s*password:\s*\$(\w+)/g)].map((m) => [m[1], m[2]]));
  for (const o of objects.filter((x) => x.kind === 'Deployment')) {
    for (const c of containersOf(o) as Obj[]) {
      if (!String(c.image).includes('meter')) continue;
      const user = (c.env ?? []).find((e: Obj) => e.name === 'NATS_USER')?.value;
      const password = (c.env ?? []).find((e: Obj) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef?.key;
      if (!user || !passwordOf.has(user)) problems.push(`${id(o)} logs in to NATS as ${user ?? 'nobody'}, not a user of vault-permissions.conf`);
      else if (password !== passwordOf.get(user)) problems.push(`${id(o)} logs in to NATS as ${user} with ${password ?? 'no password'}, not ${passwordOf.get(user)}`);
    }
  }
  return problems;
}

/** The migration Job runs the migrate script against the database Secret. */
export function migrationProblems(objects: K8sObject[]): string[] {
  const job = objects.find((o: Obj) => o.kind === 'Job' && (podSpecOf(o)?.containers ?? []).some((c: Obj) => (c.command ?? []).join(' ') === 'node dist/scripts/migrate.js'));
  if (!job) return ['no Job runs node dist/scripts/migrate.js'];
  const container = (podSpecOf(job)?.containers ?? [])[0];
  return (container.env ?? []).some((e: Obj) => e.name === 'DATABASE_URL') ? [] : [`${id(job)} has no DATABASE_URL`];
}

/** Every image is pinned: a tag other than latest, or a digest (the base leaves the platform image to the overlays). */
export function imageProblems(objects: K8sObject[], options: { platformImageNamed: boolean }): string[] {
  return objects
    .filter((o) => WORKLOADS.has(o.kind))
    .flatMap((o) =>
      (containersOf(o) as Obj[]).flatMap((c) => {
        const image = String(c.image ?? '');
        if (!options.platformImageNamed && image === 'meter-platform') return [];
        const pinned = /@sha256:[0-9a-f]{64}$/.test(image) || /:[\w][\w.-]{0,127}$/.test(image.slice(image.lastIndexOf('/') + 1));
        return pinned && !image.endsWith(':latest') ? [] : [`${id(o)} container ${c.name} runs an unpinned image ${image}`];
      }),
    );
}

/** Every namespaced object lands in the overlay's namespace. */
export function namespaceProblems(objects: K8sObject[], namespace: string): string[] {
  return objects.filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== namespace).map((o) => `${id(o)} is in namespace ${o.metadata.namespace}, not ${namespace}`);
}

export function allProblems(objects: K8sObject[], namespace: string, options = { platformImageNamed: true }): string[] {
  return [
    ...imageProblems(objects, options),
    ...resourceProblems(objects),
    ...securityProblems(objects),
    ...serviceProblems(objects),
    ...referenceProblems(objects),
    ...environmentProblems(objects),
    ...networkProblems(objects),
    ...ingressProblems(objects),
    ...natsProblems(objects),
    ...natsUserProblems(objects),
    ...migrationProblems(objects),
    ...namespaceProblems(objects, namespace),
  ];
}
