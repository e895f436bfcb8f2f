import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildDocument, documentPath, PUBLIC_APIS, serialize } from './openapi/documents';

/**
 * `npm run openapi`: writes docs/openapi/{gateway,management}.json from the
 * controllers and their schemas. test/openapi.spec.ts fails while the committed files differ.
 */
async function main() {
  for (const api of PUBLIC_APIS) {
    const document = await buildDocument(api);
    const path = documentPath(api);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, serialize(document));
    console.log(`openapi: wrote ${path} (${Object.keys(document.paths ?? {}).length} paths)`);
  }
}

main().catch((error: unknown) => {
  console.error(`openapi: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
