import { z } from 'zod';

/**
 * The fields of a CloudNativePG `Cluster` (postgresql.cnpg.io/v1) that deploy/
 * uses, with their types and bounds from the CNPG API reference
 * (https://cloudnative-pg.io/documentation/current/cloudnative-pg.v1/).
 * Strict: a field outside this subset is refused, so a typo cannot pass.
 */
const quantity = z.string().regex(/^[0-9]+(\.[0-9]+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/, 'must be a Kubernetes quantity');
const resources = z
  .object({
    requests: z.object({ cpu: quantity.optional(), memory: quantity.optional() }).strict().optional(),
    limits: z.object({ cpu: quantity.optional(), memory: quantity.optional() }).strict().optional(),
  })
  .strict();
const storage = z.object({ size: quantity, storageClass: z.string().min(1).optional() }).strict();
const name = z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/).max(50);

export const cnpgClusterSchema = z
  .object({
    apiVersion: z.literal('postgresql.cnpg.io/v1'),
    kind: z.literal('Cluster'),
    metadata: z
      .object({
        name,
        namespace: z.string().min(1).optional(),
        labels: z.record(z.string(), z.string()).optional(),
        annotations: z.record(z.string(), z.string()).optional(),
      })
      .strict(),
    spec: z
      .object({
        instances: z.number().int().min(1),
        imageName: z.string().regex(/^[^\s:]+(:[^\s]+)?$/).optional(),
        primaryUpdateStrategy: z.enum(['unsupervised', 'supervised']).optional(),
        enableSuperuserAccess: z.boolean().optional(),
        bootstrap: z
          .object({ initdb: z.object({ database: z.string().min(1), owner: z.string().min(1) }).strict() })
          .strict()
          .optional(),
        postgresql: z.object({ parameters: z.record(z.string(), z.string()) }).strict().optional(),
        storage,
        walStorage: storage.optional(),
        resources: resources.optional(),
        affinity: z
          .object({
            enablePodAntiAffinity: z.boolean().optional(),
            topologyKey: z.string().min(1).optional(),
            podAntiAffinityType: z.enum(['preferred', 'required']).optional(),
          })
          .strict()
          .optional(),
        monitoring: z.object({ enablePodMonitor: z.boolean() }).strict().optional(),
      })
      .strict(),
  })
  .strict();
