import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { gatewayOpenApiDocument } from './openapi-document';

/** The console's checked-in API types, generated from the gateway's OpenAPI document. */
export const CONSOLE_SCHEMA_FILE = resolve(__dirname, '../../../console/src/api/schema.d.ts');

const HEADER =
  '// Generated from the gateway\'s OpenAPI document (GET /v1/openapi.json) by `npm run console:client`.\n' +
  '// Do not edit: a test fails when this file differs from what the current document generates.\n\n';

/** The TypeScript types openapi-typescript makes of the current OpenAPI document. */
export async function generateConsoleSchema(): Promise<string> {
  const document = await gatewayOpenApiDocument();
  const ast = await openapiTS(document as never, { alphabetize: true });
  return HEADER + astToString(ast);
}

/**
 * `npm run console:client` writes the file; with `--check` it only says whether it is current
 * (`--check <file>` checks another copy of it).
 */
async function main(): Promise<void> {
  const generated = await generateConsoleSchema();
  const checkAt = process.argv.indexOf('--check');
  if (checkAt >= 0) {
    const file = process.argv[checkAt + 1] ?? CONSOLE_SCHEMA_FILE;
    const current = readFileSync(file, 'utf8');
    if (current !== generated) {
      process.stderr.write(`${file} is out of date: run npm run console:client\n`);
      process.exit(1);
    }
    process.stdout.write('console API client is current\n');
    return;
  }
  writeFileSync(CONSOLE_SCHEMA_FILE, generated);
  process.stdout.write(`wrote ${CONSOLE_SCHEMA_FILE}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
}
