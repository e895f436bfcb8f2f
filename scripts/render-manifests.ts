import { isTarget, renderYaml, targetDir, TARGETS } from './deploy/kustomize';

/**
 * `npm run deploy:render -- <base|dev|prod>`: prints the Kubernetes manifests
 * of that kustomization as YAML (what `kubectl kustomize deploy/overlays/<x>`
 * prints), e.g. `npm run -s deploy:render -- prod | kubectl apply -f -`.
 */
function main(argv: string[]) {
  const target = argv[0] ?? 'prod';
  if (argv.length > 1 || !isTarget(target)) {
    process.stderr.write(`usage: npm run deploy:render -- <${Object.keys(TARGETS).join('|')}>\n`);
    process.exit(2);
  }
  process.stdout.write(renderYaml(targetDir(target)));
}

try {
  main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`deploy:render: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
