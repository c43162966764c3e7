import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');
const LIB = join(ROOT, 'lib');

/** Header names of the interface and of HTTP around it, as they are written in headers. */
const HEADER_NAMES = [
  'Accept', 'Accept-Encoding', 'Accept-Post', 'Access-Control-Allow-Origin', 'Allow', 'Authorization', 'Cache-Control', 'Connection', 'Content-Encoding',
  'Content-Length', 'Content-Type', 'Deprecation', 'ETag', 'Expect', 'Host', 'Idempotency-Key', 'If-None-Match', 'Link', 'Location', 'Retry-After', 'Sunset',
  'Transfer-Encoding', 'Vary', 'WWW-Authenticate', 'X-Content-Type-Options', 'X-Request-Id',
] as const;

/**
 * What the engine must not name: a header (as written, or lower-cased in quotes), a request method,
 * a path of the server, or what only a layer above knows (an answer's header list, a client's request
 * id or attempts), which lives on that layer's own type (STYLE.md rule 6).
 */
const HTTP_WORDS: readonly { kind: string; pattern: RegExp }[] = [
  { kind: 'header', pattern: new RegExp(`(?<![\\w-])(${HEADER_NAMES.join('|')})(?![\\w-])`, 'g') },
  { kind: 'header', pattern: new RegExp(`['"\`](${HEADER_NAMES.map((name) => name.toLowerCase()).join('|')})['"\`]`, 'g') },
  // A method as a word; GET_PET_SUNSET and the like are names of their own.
  { kind: 'method', pattern: /(?<!\w)(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)(?!\w)/g },
  // A path of the server; `./petstore.js` is a module, not a path.
  { kind: 'path', pattern: /(?<![\w.])\/(healthz|readyz|metrics|docs|openapi\.json|pets)(?![\w-])/g },
  // `headers_too_large` is an Error code, and `-header-07` part of a draft's name.
  { kind: 'layer above', pattern: /(?<![\w$-])(headers|HeaderList|requestId|attempts)(?![\w$-])/g },
];

/** Every HTTP word in a text, as `line: kind word`. */
function httpWordsIn(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    for (const { kind, pattern } of HTTP_WORDS) {
      for (const match of line.matchAll(pattern)) found.push(`${index + 1}: ${kind} ${match[0]}`);
    }
  });
  return found;
}

/** The TypeScript files below a folder. */
async function engineFiles(folder: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      files.push(...(await engineFiles(path)));
    } else if (entry.name.endsWith('.ts')) {
      files.push(path);
    }
  }
  return files;
}

describe('lib/ speaks the spec, not HTTP', () => {
  test('lib/ names no HTTP header, request method, server path, header list, request id or attempt count, in code or comments', async () => {
    const files = await engineFiles(LIB);
    assert.ok(files.some((file) => file.endsWith('petstore.ts')) && files.some((file) => file.endsWith('memory-storage.ts')), files.join(', '));
    const found: string[] = [];
    for (const file of files) {
      for (const word of httpWordsIn(await readFile(file, 'utf8'))) found.push(`${relative(ROOT, file)}:${word}`);
    }
    assert.deepEqual(found, []);
  });

  test('the scan finds each kind of HTTP word in a sample, and passes the engine\'s own words', () => {
    const flagged: [string, ...string[]][] = [
      ["headers: ['Content-Type', 'application/json']", '1: header Content-Type', '1: layer above headers'],
      ['/** Sent back in `X-Request-Id`. */', '1: header X-Request-Id'],
      ["const name = 'www-authenticate';", "1: header 'www-authenticate'"],
      ['// the next page, in Link: rel="next"', '1: header Link'],
      ['if (method === "POST") return;', '1: method POST'],
      ['// HEAD answers without a body', '1: method HEAD'],
      ["const probe = '/healthz';", '1: path /healthz'],
      ['const url = `${base}/pets/${id}`;', '1: path /pets'],
      ['\nfetch(origin + "/openapi.json")', '2: path /openapi.json'],
      ['export type HeaderList = readonly string[];', '1: layer above HeaderList'],
      ['  readonly headers: readonly string[];', '1: layer above headers'],
      ['  requestId?: string;', '1: layer above requestId'],
      ['/** How many attempts the call made. */', '1: layer above attempts'],
    ];
    for (const [sample, ...words] of flagged) assert.deepEqual(httpWordsIn(sample), words, sample);
    const clean = [
      "export const GET_PET_SUNSET = 'x';",
      "import { createPetstore } from './petstore.js';",
      '/** The Error body: `code`, `message` and `status` [spec 2, 7]. */',
      "const body = { code: 'not_found', message: 'No pet has id 7', status: 404 };",
      '// Links between pets are not part of the spec; a location of a pet is its id.',
      "  headers_too_large: 431,",
      ' * (draft-ietf-httpapi-idempotency-key-header-07)',
    ];
    for (const sample of clean) assert.deepEqual(httpWordsIn(sample), [], sample);
  });
});
