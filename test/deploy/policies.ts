import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { envSchema } from '@meter/config';
import { containersOf, type K8sObject } from './kustomize';

/**
 * What deploy/ promises beyond schema validity: every rule is one function that
 * returns the problems it finds, so a test can show each one failing.
 */
type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const APPS = { gateway: 8080, auth: 8081, vault: 8082, ingest: 8083, integrations: 8084, collectors: 8085 } as const;
export type AppName = keyof typeof APPS;

/** The processes with no public route: their HTTP port serves probes and metrics, for the metrics scraper only. */
export const PROBES_ONLY: AppName[] = ['vault', 'ingest', 'integrations'];

/** The processes that call URLs the organizations choose (storage, webhooks): their egress is restricted to public addresses. */
export const OUTBOUND: AppName[] = ['integrations'];

/** Secrets deploy/ refers to but does not contain: CNPG creates the first, operators the others. */
export const EXTERNAL_SECRETS: Record<string, string[]> = {
  'meter-postgres-app': ['uri'],
  'meter-credential-keyring': ['CREDENTIAL_KEYRING'],
  'meter-vault-root-keyring': ['VAULT_ROOT_KEYRING'],
  'meter-webhook-secret-keyring': ['WEBHOOK_SECRET_KEYRING'],
  'meter-nats-users': [
    'VAULT_NATS_PASSWORD',
    'AUTH_NATS_PASSWORD',
    'INTEGRATION_NATS_PASSWORD',
    'GATEWAY_NATS_PASSWORD',
    'INGEST_NATS_PASSWORD',
    'COLLECTORS_NATS_PASSWORD',
  ],
};

/** Which process may hold which key ring (docs/keys.md). */
const KEYRING_HOLDERS: Record<string, string[]> = {
  CREDENTIAL_KEYRING: ['gateway', 'auth'],
  VAULT_ROOT_KEYRING: ['vault'],
  WEBHOOK_SECRET_KEYRING: ['integrations'],
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

/** A label selector (matchLabels and matchExpressions) applied to labels; an empty selector selects everything. */
function selects(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpressions = (selector.matchExpressions ?? []).every((e: Obj) => {
    const value = labels[e.key];
    if (e.operator === 'In') return value !== undefined && e.values.includes(value);
    if (e.operator === 'NotIn') return value === undefined || !e.values.includes(value);
    if (e.operator === 'Exists') return value !== undefined;
    return value === undefined; // DoesNotExist
  });
  return byLabels && byExpressions;
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

/** The services: probes on /readyz and /healthz, their port, a grace period that covers the graceful stop. */
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

/** How long `/readyz` may take: each readiness check of a process times out after this (libs/http ReadinessRegistry). */
const READINESS_CHECK_TIMEOUT_SECONDS = 2;

/**
 * Probe timing of the services: readiness waits longer than the checks' own
 * timeout (a slow dependency then shows as a 503 naming it, not a probe timeout),
 * liveness tolerates 30 s without an answer (a busy event loop is not a dead process),
 * and start-up has a minute before liveness takes over.
 */
export function probeProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const name of Object.keys(APPS)) {
    const container = (podSpecOf(find(objects, 'Deployment', name) ?? {})?.containers ?? []).find((c: Obj) => c.name === name);
    if (!container) continue; // serviceProblems reports it
    const { readinessProbe: readiness, livenessProbe: liveness, startupProbe: startup } = container;
    const span = (probe: Obj | undefined) => (probe?.periodSeconds ?? 10) * (probe?.failureThreshold ?? 3);
    if (readiness && (readiness.timeoutSeconds ?? 1) <= READINESS_CHECK_TIMEOUT_SECONDS) {
      problems.push(`Deployment/${name} readiness probe times out after ${readiness.timeoutSeconds ?? 1} s, before its ${READINESS_CHECK_TIMEOUT_SECONDS} s checks`);
    }
    if (liveness && span(liveness) < 30) problems.push(`Deployment/${name} is restarted after ${span(liveness)} s without an answer, less than 30 s`);
    if (startup?.httpGet?.path !== '/healthz' || span(startup) < 60) problems.push(`Deployment/${name} has no startup probe on /healthz allowing 60 s`);
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

/** The variables a process may be given: the config schema's, APP (which process) and Node's own NODE_OPTIONS (the integrations' heap cap). */
export const KNOWN_ENV_NAMES: ReadonlySet<string> = new Set([...Object.keys(envSchema.shape), 'APP', 'NODE_OPTIONS']);

/**
 * The environment of each container that runs our image, as the pod would see
 * it (ConfigMaps resolved, Secrets replaced by a well-formed stand-in), passes
 * the config schema the process validates at start, names no variable the
 * schema does not know, and holds only the key rings that process may hold.
 */
export function environmentProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const ring = 'k1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
  const standIn: Record<string, string> = { uri: 'postgresql://meter:secret@meter-postgres-rw:5432/meter', ...Object.fromEntries(Object.keys(KEYRING_HOLDERS).map((k) => [k, ring])) };
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
      for (const name of Object.keys(env)) if (!KNOWN_ENV_NAMES.has(name)) problems.push(`${where} sets ${name}, which the config schema does not know`);
      const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
      const parsed = envSchema.safeParse(cleaned);
      if (!parsed.success) problems.push(`${where}: invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      else if (parsed.data.NODE_ENV === 'production' && !env.DATABASE_URL) problems.push(`${where} has no DATABASE_URL`);
    }
  }
  for (const secret of objects.filter((o) => o.kind === 'Secret')) problems.push(`${id(secret)}: secrets are never committed; reference one created out of band`);
  return problems;
}

/**
 * Each process gets the key rings it holds from their Secret, not optionally: in production a
 * holder without its ring refuses to start, so a missing Secret must stop the pod's creation
 * (CreateContainerConfigError, naming it) rather than start a process that exits at once.
 */
export function keyRingProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const [ring, holders] of Object.entries(KEYRING_HOLDERS)) {
    for (const holder of holders) {
      const container = (podSpecOf(find(objects, 'Deployment', holder) ?? {})?.containers ?? []).find((c: Obj) => c.name === holder);
      if (!container) continue; // serviceProblems reports it
      const reference = (container.env ?? []).find((e: Obj) => e.name === ring)?.valueFrom?.secretKeyRef;
      if (!reference) problems.push(`Deployment/${holder} does not get ${ring} from a Secret`);
      else if (reference.optional === true) problems.push(`Deployment/${holder} takes ${ring} optionally; it cannot start without it`);
    }
  }
  return problems;
}

/** The policies that apply to a pod with `labels` (an empty podSelector applies to every pod). */
function policiesFor(policies: Obj[], labels: Record<string, string>): Obj[] {
  return policies.filter((p) => Object.keys(p.spec?.podSelector ?? {}).length === 0 || selects(p.spec?.podSelector, labels));
}

/**
 * Default deny; the processes without public routes reachable on their metrics port from the
 * monitoring namespace only; NATS and Postgres reachable from every process.
 */
export function networkProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as Obj[];
  const denyAll = policies.some(
    (p) => Object.keys(p.spec?.podSelector ?? {}).length === 0 && p.spec?.policyTypes?.includes('Ingress') && !(p.spec?.ingress ?? []).length,
  );
  if (!denyAll) problems.push('no default-deny ingress NetworkPolicy');
  for (const name of PROBES_ONLY) {
    const deployment = find(objects, 'Deployment', name);
    if (!deployment) continue;
    const container = (podSpecOf(deployment)?.containers ?? []).find((c: Obj) => c.name === name) ?? {};
    const metricsPortName = (container.ports ?? []).find((p: Obj) => p.containerPort === APPS[name])?.name;
    for (const policy of policiesFor(policies, podLabelsOf(deployment))) {
      for (const rule of policy.spec?.ingress ?? []) {
        const ports = (rule.ports ?? []).map((p: Obj) => p.port);
        if (!ports.length || ports.some((p: unknown) => p !== metricsPortName && p !== APPS[name])) {
          problems.push(`NetworkPolicy/${policy.metadata.name} lets traffic reach the ${name} on a port other than its metrics port`);
        }
        const peers = rule.from ?? [];
        const onlyMonitoring =
          peers.length > 0 && peers.every((peer: Obj) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring' && !peer.podSelector && !peer.ipBlock);
        if (!onlyMonitoring) problems.push(`NetworkPolicy/${policy.metadata.name} lets something other than the monitoring namespace reach the ${name}`);
      }
    }
  }
  // Every process reaches the servers it connects to (a process missing from a server's list cannot start).
  const servers: { name: string; labels: Record<string, string>; port: number; portName?: string }[] = [
    { name: 'NATS', labels: { 'app.kubernetes.io/name': 'nats' }, port: 4222, portName: 'client' },
    { name: 'Postgres', labels: { 'cnpg.io/cluster': 'meter-postgres' }, port: 5432, portName: undefined },
  ];
  for (const server of servers) {
    const guarding = policiesFor(policies, server.labels).filter((p) => (p.spec?.ingress ?? []).length > 0);
    for (const name of Object.keys(APPS)) {
      const deployment = find(objects, 'Deployment', name);
      if (!deployment) continue;
      const labels = podLabelsOf(deployment);
      const admitted = guarding.some((p) =>
        (p.spec.ingress as Obj[]).some(
          (rule) =>
            (rule.from ?? []).some((peer: Obj) => !peer.namespaceSelector && !peer.ipBlock && selects(peer.podSelector, labels)) &&
            (!rule.ports?.length || rule.ports.some((p: Obj) => p.port === server.port || p.port === server.portName)),
        ),
      );
      if (guarding.length && !admitted) problems.push(`no NetworkPolicy lets ${name} reach ${server.name}`);
    }
  }
  return problems;
}

/** Ranges no outbound call of ours may reach: private, loopback, link-local (cloud metadata), shared, reserved. */
export const NON_PUBLIC_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b:1::/48',
  '100::/64',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
];

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Whether `inner` lies inside `outer` (same family, at least as long a prefix, inside its network). */
function within(inner: Range, outer: Range): boolean {
  return inner[0].kind() === outer[0].kind() && inner[1] >= outer[1] && inner[0].match(outer);
}

/** What a process that calls customers' URLs may reach beyond the servers: public addresses only, and still Postgres, NATS and DNS. */
export function egressProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy') as Obj[];
  const nonPublic = NON_PUBLIC_RANGES.map((r) => ipaddr.parseCIDR(r) as Range);
  for (const policy of policies) {
    for (const rule of policy.spec?.egress ?? []) {
      for (const peer of rule.to ?? []) {
        if (!peer.ipBlock) continue;
        const block = ipaddr.parseCIDR(peer.ipBlock.cidr) as Range;
        const except = (peer.ipBlock.except ?? []).map((e: string) => ipaddr.parseCIDR(e) as Range);
        for (const [i, range] of nonPublic.entries()) {
          if (within(range, block) && !except.some((e: Range) => within(range, e))) {
            problems.push(`NetworkPolicy/${policy.metadata.name} lets traffic out to ${NON_PUBLIC_RANGES[i]} (${peer.ipBlock.cidr} without it in except)`);
          }
        }
      }
    }
  }
  for (const name of OUTBOUND) {
    const deployment = find(objects, 'Deployment', name);
    if (!deployment) continue;
    const restricting = policiesFor(policies, podLabelsOf(deployment)).filter((p) => p.spec?.policyTypes?.includes('Egress'));
    if (!restricting.length) {
      problems.push(`no NetworkPolicy restricts the egress of ${name}, which calls URLs the organizations choose`);
      continue;
    }
    const rules = restricting.flatMap((p) => (p.spec?.egress ?? []) as Obj[]);
    const reaches = (peerMatches: (peer: Obj) => boolean, port: number) =>
      rules.some((rule) => (rule.to ?? []).some(peerMatches) && (!rule.ports?.length || rule.ports.some((p: Obj) => p.port === port)));
    if (!reaches((peer) => !peer.namespaceSelector && selects(peer.podSelector, { 'cnpg.io/cluster': 'meter-postgres' }), 5432)) {
      problems.push(`the egress of ${name} does not reach Postgres`);
    }
    if (!reaches((peer) => !peer.namespaceSelector && selects(peer.podSelector, { 'app.kubernetes.io/name': 'nats' }), 4222)) problems.push(`the egress of ${name} does not reach NATS`);
    if (!reaches((peer) => peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system', 53)) problems.push(`the egress of ${name} does not reach the cluster DNS`);
    if (!reaches((peer) => peer.ipBlock?.cidr === '0.0.0.0/0', 443)) problems.push(`the egress of ${name} does not reach public HTTPS addresses`);
  }
  return problems;
}

/** Paths the ingress may send to a process other than gateway and auth: the collectors' HTTP uplinks and, on their host, their document. */
const PUBLISHED_ELSEWHERE: Record<string, string> = { '/collect/v1': 'collectors', '/docs': 'collectors' };

/** {base_url} goes to the gateway, {management_url} to auth, /collect/v1 to collectors, and nothing else (no probes, no metrics) is published. */
export function ingressProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const ingresses = objects.filter((o) => o.kind === 'Ingress') as Obj[];
  const backends = new Set<string>();
  for (const ingress of ingresses) {
    for (const rule of ingress.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const service = path.backend?.service;
        backends.add(service?.name);
        if (!['gateway', 'auth'].includes(service?.name) && PUBLISHED_ELSEWHERE[path.path] !== service?.name) problems.push(`Ingress/${ingress.metadata.name} publishes ${service?.name}`);
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
  const authPaths: Obj[] = ingresses.flatMap((i) => (i.spec?.rules ?? []).flatMap((r: Obj) => (r.http?.paths ?? []).filter((p: Obj) => p.backend?.service?.name === 'auth')));
  for (const path of managementApiPaths()) {
    const published = authPaths.some((p) => (p.pathType === 'Exact' ? p.path === path : path === p.path || path.startsWith(`${p.path.replace(/\/$/, '')}/`)));
    if (!published) problems.push(`no Ingress path publishes ${path} of the management API ({management_url})`);
  }
  return problems;
}

/** Every route of the management API, as its committed document lists them (`/org-api-credentials/{id}`, ...). */
export function managementApiPaths(): string[] {
  const document = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'openapi', 'management.json'), 'utf8')) as { paths: Record<string, unknown> };
  return Object.keys(document.paths);
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
  const job = objects.find((o: Obj) => o.kind === 'Job' && (podSpecOf(o)?.containers ?? []).some((c: Obj) => (c.command ?? []).join(' ') === 'node dist/apps/cli/src/main.js migrate'));
  if (!job) return ['no Job runs node dist/apps/cli/src/main.js migrate'];
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
    ...probeProblems(objects),
    ...referenceProblems(objects),
    ...environmentProblems(objects),
    ...keyRingProblems(objects),
    ...networkProblems(objects),
    ...egressProblems(objects),
    ...ingressProblems(objects),
    ...natsProblems(objects),
    ...natsUserProblems(objects),
    ...migrationProblems(objects),
    ...namespaceProblems(objects, namespace),
  ];
}
