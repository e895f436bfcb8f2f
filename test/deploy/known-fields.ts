import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { K8sObject } from './kustomize';

/** Where kubernetes-models keeps the TypeScript interface `I<Kind>` of each built-in apiVersion. */
const TYPE_MODULES: Record<string, string> = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'policy/v1': 'kubernetes-models/policy/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
};

/**
 * The JSON schemas of kubernetes-models, like the API server's OpenAPI, accept
 * unknown fields, so a misspelt `topologySpreadConstraint` would pass them and
 * be dropped silently by the cluster. kubernetes-models also ships the same
 * API as TypeScript interfaces: typing each rendered object as its interface
 * lets the compiler's excess-property check name any unknown field, at any
 * depth. Custom resources are left to their own strict schemas.
 *
 * One compilation covers every group given (it takes seconds): problems are
 * prefixed with the group's name. The compiler names one unknown field per
 * object at a time.
 */
export function unknownFieldProblems(groups: Record<string, K8sObject[]>): string[] {
  const root = join(__dirname, '..', '..');
  const fileName = join(root, 'test', 'deploy', '__rendered_manifests__.ts');
  const lines: string[] = [];
  const lineOwner = new Map<number, string>();
  let index = 0;
  for (const [group, objects] of Object.entries(groups)) {
    for (const object of objects) {
      const module = TYPE_MODULES[object.apiVersion];
      if (!module) continue;
      lines.push(`import type { I${object.kind} as T${index} } from '${module}/${object.kind}';`);
      lineOwner.set(lines.length, `${group}: ${object.kind}/${object.metadata.name}`);
      lines.push(`export const o${index}: T${index} = ${JSON.stringify(object)};`);
      index++;
    }
  }
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  host.getCurrentDirectory = () => dirname(fileName);
  const program = ts.createProgram([fileName], options, host);
  const diagnostics = [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()].filter((d) => d.file?.fileName === fileName);
  return diagnostics.map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    return `${lineOwner.get(line) ?? `line ${line + 1}`}: ${message}`;
  });
}
