// Writes openapi.json at the repository root: the description the server serves at /v1/openapi.json, filled from extras/docs-site/openapi/openapi.template.json.
// Run with `npm run openapi`; test/extras/docs-site/served-openapi.test.ts fails while the file is stale.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createOpenApiDocument } from '../extras/docs-site/openapi/index.js';
import { DEFAULT_BODY_LIMIT } from '../server/core/index.js';

const target = resolve(import.meta.dirname, '..', 'openapi.json');
await writeFile(target, `${JSON.stringify(createOpenApiDocument({ bodyLimit: DEFAULT_BODY_LIMIT }), null, 2)}\n`);
process.stdout.write(`Wrote ${target}\n`);
