import { execFile, execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

/**
 * deploy/ rendered by the real tool, `kubectl kustomize` (kustomize v5), so
 * the tests check exactly the objects `kubectl apply -k` would send.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export const TARGETS = { base: 'deploy/base', dev: 'deploy/overlays/dev', prod: 'deploy/overlays/prod' } as const;
export type Target = keyof typeof TARGETS;

const ROOT = join(__dirname, '..', '..');

export type Kubectl = { available: true; kustomizeVersion: string } | { available: false; why: string };

/** Whether kubectl is on PATH, and the kustomize version it embeds; why not, when it is not. */
export function findKubectl(): Kubectl {
  try {
    const text = execFileSync('kubectl', ['version', '--client', '--output=json'], { encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const kustomizeVersion = (JSON.parse(text) as { kustomizeVersion?: string }).kustomizeVersion;
    if (!kustomizeVersion) return { available: false, why: 'kubectl names no embedded kustomize version (kubectl 1.14 or later is needed)' };
    return { available: true, kustomizeVersion };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { available: false, why: 'kubectl is not on PATH; install kubectl (kustomize v5) to render deploy/' };
    return { available: false, why: `kubectl version failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
}

const run = promisify(execFile);
const rendered = new Map<Target, Promise<K8sObject[]>>();

/**
 * The objects of `kubectl kustomize <target>`, read as YAML 1.1 like kubectl
 * reads them; one run per target and test file. Each call gets its own copy.
 */
export async function kustomize(target: Target): Promise<K8sObject[]> {
  if (!rendered.has(target)) rendered.set(target, render(target));
  return structuredClone(await rendered.get(target)!);
}

async function render(target: Target): Promise<K8sObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', TARGETS[target]], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024, timeout: 60_000 });
  return parseAllDocuments(stdout, { version: '1.1' }).flatMap((doc) => {
    const problem = doc.errors[0] ?? doc.warnings[0];
    if (problem) throw new Error(`kubectl kustomize ${TARGETS[target]}: ${problem.message}`);
    const object = doc.toJS() as K8sObject | null;
    return object ? [object] : [];
  });
}

/** The containers (init containers first) of a workload's pod template. */
export function containersOf(object: K8sObject): Record<string, unknown>[] {
  const spec = object.spec as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  const pod = object.kind === 'CronJob' ? spec?.jobTemplate?.spec?.template?.spec : object.kind === 'Pod' ? spec : spec?.template?.spec;
  return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];
}
