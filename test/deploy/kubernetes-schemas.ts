import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import * as core from 'kubernetes-models/v1';
import type { K8sObject } from './kustomize';
import { cnpgClusterSchema } from './cnpg-cluster.schema';

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: unknown): { validate(): void };
}

/** The built-in API groups deploy/ may use, with the models (and JSON schemas) of kubernetes-models. */
const MODULES: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'batch/v1': batch,
  'autoscaling/v2': autoscaling,
  'policy/v1': policy,
  'networking.k8s.io/v1': networking,
};

/**
 * Custom resources have no model in kubernetes-models: each is checked with a
 * strict zod schema committed here, covering the fields deploy/ uses (an
 * unknown or misspelt field fails, unlike the built-in schemas below, which
 * follow Kubernetes' OpenAPI and accept unknown fields).
 */
const CUSTOM_RESOURCES: Record<string, (object: unknown) => void> = {
  'postgresql.cnpg.io/v1/Cluster': (object) => {
    const result = cnpgClusterSchema.safeParse(object);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new Error(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
  },
};

function modelFor(object: K8sObject): ModelClass | undefined {
  const candidate = MODULES[object.apiVersion]?.[object.kind] as ModelClass | undefined;
  return typeof candidate === 'function' && candidate.kind === object.kind && candidate.apiVersion === object.apiVersion ? candidate : undefined;
}

/** Throws naming the object and the first schema violation; an unknown apiVersion/kind is a violation too. */
export function validateAgainstSchema(object: K8sObject): void {
  const id = `${object.apiVersion}/${object.kind}`;
  const where = `${object.kind}/${object.metadata?.name}`;
  const custom = CUSTOM_RESOURCES[id];
  const Model = modelFor(object);
  if (!custom && !Model) throw new Error(`${where}: unknown kind ${id}: no Kubernetes schema to validate it against`);
  try {
    if (custom) custom(object);
    else new Model!(object).validate();
  } catch (error) {
    throw new Error(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
