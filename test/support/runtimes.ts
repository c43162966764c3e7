import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './process.js';
import { curlSessions, readmeApiKey, shownStatus } from './readme.js';
import { toolBin } from '../tools/paths.js';

const run = promisify(execFile);

/** A build of the package in a directory of its own: `dist/` beside a package.json with the real `exports` map. */
export interface PackageBuild {
  /** The package's root, for `import 'petstore-reference/…'` from a process started there. */
  directory: string;
  /** Its `dist/` folder. */
  dist: string;
  remove(): Promise<void>;
}

/**
 * Compiles the sources with tsconfig.build.json into a temporary directory. Not into `dist/`: test
 * files run in parallel, and test/readme.test.ts rebuilds `dist/` (npm start runs `prestart`), so a
 * process reading it could find a file half written, or one a stale build left behind.
 */
export async function buildPackage(): Promise<PackageBuild> {
  const directory = await mkdtemp(join(tmpdir(), 'petstore-build-'));
  const dist = join(directory, 'dist');
  await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', dist]);
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { name: string; type: string; exports: unknown };
  await writeFile(join(directory, 'package.json'), JSON.stringify({ name: manifest.name, type: manifest.type, exports: manifest.exports }));
  return { directory, dist, remove: () => rm(directory, { recursive: true, force: true }) };
}

/** A request as it goes over the wire. */
export interface WireRequest {
  method: string;
  /** Path and query. */
  path: string;
  /** By lower-case name; a list sends the field once per value, and then Node's client adds no `Host` of its own. */
  headers: Readonly<Record<string, string | string[]>>;
  body?: Uint8Array;
  /** Whether the request goes without the `Host` header Node's client otherwise adds. */
  omitsHost?: boolean;
}

/** An answer as it came over the wire: lower-case header names in the order sent, the body's bytes. */
export interface WireAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/** The headers as Node's client takes them: a record, or a flat name/value list (the only way to send a field twice). */
function headerFields(headers: WireRequest['headers']): Record<string, string | string[]> | string[] {
  const entries = Object.entries(headers);
  if (!entries.some(([, value]) => Array.isArray(value))) return { ...headers };
  return entries.flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).flatMap((one) => [name, one]));
}

/**
 * Sends one request over a new connection and reads the whole answer. Node's client adds `Host` and
 * `Connection: keep-alive` (an agent without keep-alive would send `Connection: close`, which servers
 * echo); the connection is closed once the answer is read.
 */
export async function sendRequest(origin: string, request: WireRequest): Promise<WireAnswer> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await exchange(origin, request, agent);
  } finally {
    agent.destroy();
  }
}

function exchange(origin: string, request: WireRequest, agent: Agent): Promise<WireAnswer> {
  return new Promise((resolvePromise, reject) => {
    let hasAnswer = false;
    const { hostname, port } = new URL(origin);
    // The path goes as given: a URL would resolve dot segments before sending.
    const options = { hostname, port, path: request.path, method: request.method, headers: headerFields(request.headers), agent, setHost: request.omitsHost !== true };
    const outgoing = httpRequest(options, (response) => {
      hasAnswer = true;
      const chunks: Buffer[] = [];
      const headers: [string, string][] = [];
      for (let index = 0; index < response.rawHeaders.length; index += 2) {
        headers.push([(response.rawHeaders[index] ?? '').toLowerCase(), response.rawHeaders[index + 1] ?? '']);
      }
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolvePromise({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    // A server that answers before reading the body (a 413) may close while the body is still being written.
    outgoing.on('error', (error) => {
      if (!hasAnswer) reject(error);
    });
    outgoing.end(request.body);
  });
}

/**
 * Headers a server adds on its own, whatever the handler answers: `Date` (Node, Deno and Bun all add
 * it; Bun leaves it out of HEAD answers), `Connection` with Node's `Keep-Alive` timeout (hop-by-hop:
 * each server decides whether a connection goes on, the node:http adapter closing it after a 413,
 * the fetch runtimes as they see fit), and a `Transfer-Encoding` the server chooses for a body of unknown length.
 */
const SERVER_OWN_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The shape of a request id the core made itself (`http/request-id.ts`): a random prefix, then a counter. */
const GENERATED_REQUEST_ID = /^[A-Za-z0-9_-]{16}-[0-9a-z]+$/;

/**
 * The headers of an answer as the handler decided them, to compare across servers: names in lower
 * case, a name sent twice joined with `, ` as the fetch API's Headers join it, sorted by name, and
 * the servers' own headers dropped.
 * An `X-Request-Id` the core made differs from answer to answer by design, so it is compared by its
 * shape; one the request sent comes back as sent and is compared exactly.
 */
export function comparableHeaders(headers: Iterable<readonly [string, string]>): [string, string][] {
  const joined = new Map<string, string>();
  for (const [rawName, rawValue] of headers) {
    const name = rawName.toLowerCase();
    if (SERVER_OWN_HEADERS.has(name)) continue;
    const value = name === 'x-request-id' && GENERATED_REQUEST_ID.test(rawValue) ? '<generated>' : rawValue;
    const earlier = joined.get(name);
    joined.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  }
  return [...joined].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
}

/** Asserts two answers carry the same status, handler headers and body bytes; `label` says which request. */
export function assertSameAnswer(actual: WireAnswer, expected: WireAnswer, label: string): void {
  assert.equal(actual.status, expected.status, `${label}: status (body ${actual.body.toString('utf8').slice(0, 200)})`);
  assert.equal(actual.body.toString('latin1'), expected.body.toString('latin1'), `${label}: body`);
  assert.deepEqual(comparableHeaders(actual.headers), comparableHeaders(expected.headers), `${label}: headers`);
}

/** The requests the README's curl samples send, in order, the status each shows, and the key the README starts its server with. */
export interface ReadmeRequests {
  apiKey: string;
  requests: WireRequest[];
  /** By request: the status of the `HTTP/1.1 …` line the README shows under it. */
  statuses: number[];
}

/** Runs a block's variable assignments and, for each curl command, prints its arguments as the shell expands them. */
async function expandCurlArguments(assignments: readonly string[], commands: readonly string[]): Promise<string[][]> {
  const script = [
    'set -u',
    "arguments() { printf '%s\\0' \"$@\"; printf '\\036\\0'; }",
    ...assignments,
    ...commands.map((command) => command.replace(/^curl /, 'arguments ')),
  ].join('\n');
  const { stdout } = await run('bash', ['--noprofile', '--norc', '-c', script]);
  const commandArguments: string[][] = [[]];
  for (const argument of stdout.split('\0').slice(0, -1)) {
    if (argument === '\u001e') commandArguments.push([]);
    else commandArguments.at(-1)?.push(argument);
  }
  return commandArguments.slice(0, -1);
}

/** curl's flags without a value that change nothing about the request. */
const QUIET_FLAGS = new Set(['-s', '--silent', '-S', '--show-error', '-i', '--include', '-v', '--verbose']);
/** Short flags without a value run together, as in `-si`. */
const SHORT_FLAG_GROUP = /^-[sSivI]{2,}$/;

/** The request a curl command line sends, for the options the README uses; any other option is an error, never a guess. */
export function curlRequest(commandArguments: readonly string[]): WireRequest {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  // curl's own default; User-Agent is left out, the same for every server.
  const headers: Record<string, string> = { accept: '*/*' };
  const queue = [...commandArguments];
  const valueOf = (option: string): string => {
    const value = queue.shift();
    if (value === undefined) throw new Error(`curl ${option} needs a value`);
    return value;
  };
  while (queue.length > 0) {
    const argument = queue.shift() ?? '';
    if (SHORT_FLAG_GROUP.test(argument)) {
      queue.unshift(...[...argument.slice(1)].map((letter) => `-${letter}`));
      continue;
    }
    if (QUIET_FLAGS.has(argument)) continue;
    if (argument === '-X' || argument === '--request') {
      method = valueOf(argument);
    } else if (argument === '-I' || argument === '--head') {
      method = 'HEAD';
    } else if (argument === '-H' || argument === '--header') {
      const header = valueOf(argument);
      const colon = header.indexOf(':');
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (['-d', '--data', '--data-raw', '--data-binary'].includes(argument)) {
      body = valueOf(argument);
      if (body.startsWith('@') && argument !== '--data-raw') throw new Error(`curl ${argument} ${body}: bodies from files are not replayed`);
    } else if (argument.startsWith('-')) {
      throw new Error(`curl option ${argument} is not understood by the replay in test/support/runtimes.ts`);
    } else {
      url = argument;
    }
  }
  if (url === undefined) throw new Error(`curl ${commandArguments.join(' ')} names no URL`);
  const { pathname, search } = new URL(url);
  if (body === undefined) return { method: method ?? 'GET', path: pathname + search, headers };
  // As curl does for -d: a form media type unless one is given, and the body's length.
  headers['content-type'] ??= 'application/x-www-form-urlencoded';
  const bytes = new TextEncoder().encode(body);
  headers['content-length'] = String(bytes.length);
  return { method: method ?? 'POST', path: pathname + search, headers, body: bytes };
}

/**
 * Reads README.md's curl sessions as test/readme.test.ts does (test/support/readme.ts) and returns the
 * requests their curl commands send, in order, with the status the README shows for each.
 */
export async function readReadmeRequests(): Promise<ReadmeRequests> {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const result: ReadmeRequests = { apiKey: readmeApiKey(readme), requests: [], statuses: [] };
  for (const { assignments, samples } of curlSessions(readme)) {
    const expanded = await expandCurlArguments(assignments, samples.map((sample) => sample.command));
    samples.forEach((sample, index) => {
      const status = shownStatus(sample);
      if (status === undefined) throw new Error(`README.md shows no \`HTTP/1.1 …\` status line under ${sample.command}`);
      result.requests.push(curlRequest(expanded[index] ?? []));
      result.statuses.push(status);
    });
  }
  return result;
}

/** A JavaScript runtime other than Node that serves the fetch handler. */
export type RuntimeName = 'deno' | 'bun';

/** The runtime's binary, installed by npm as a devDependency. */
export function runtimeBinary(name: RuntimeName): string {
  return toolBin(name);
}

/** Why a runtime cannot run here, or undefined when `<binary> --version` works. */
export async function runtimeProblem(name: RuntimeName): Promise<string | undefined> {
  const binary = runtimeBinary(name);
  const isPresent = await access(binary).then(() => true, () => false);
  if (!isPresent) return `${binary} is missing (npm ci installs it)`;
  return run(binary, ['--version']).then(() => undefined, (error: Error) => `${binary} --version failed: ${error.message}`);
}

/** Whether tests that need a runtime fail, rather than skip, when it is missing: under CI, where it must be there. */
export const MUST_HAVE_RUNTIMES = process.env['CI'] === 'true';

/** A server process of another runtime, serving the fetch handler on a free port of 127.0.0.1. */
export interface RuntimeServer {
  origin: string;
  /** Ends the process and waits until it has exited. */
  stop(): Promise<void>;
}

/** The script each runtime serves the fetch handler with. */
const SERVE_SCRIPT = join(ROOT, 'test', 'runtimes', 'serve-fetch.mjs');

/** The command line that runs the serve script: Deno may reach the loopback interface and read the build, nothing else. */
function runtimeArguments(name: RuntimeName, dist: string, apiKey: string): string[] {
  if (name === 'deno') {
    return ['run', '--no-config', '--no-lock', '--no-prompt', '--allow-net=127.0.0.1', `--allow-read=${dist}`, SERVE_SCRIPT, dist, apiKey];
  }
  return ['--no-install', SERVE_SCRIPT, dist, apiKey];
}

/** Starts test/runtimes/serve-fetch.mjs under Deno or Bun with a fresh in-memory store and `apiKey`, and waits for its port. */
export async function startRuntimeServer(name: RuntimeName, dist: string, apiKey: string): Promise<RuntimeServer> {
  const child = spawn(runtimeBinary(name), runtimeArguments(name, dist, apiKey), {
    cwd: tmpdir(),
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A binary that cannot be started reports an error and never an exit.
  const exited = new Promise<void>((done) => child.once('exit', () => done()).once('error', () => done()));
  let output = '';
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    const port = await new Promise<string>((found, fail) => {
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString('utf8');
        const match = /^port (\d+)$/m.exec(output);
        if (match?.[1] !== undefined) found(match[1]);
      });
      child.stderr.on('data', (data: Buffer) => {
        output += data.toString('utf8');
      });
      child.once('error', fail);
      void exited.then(() => fail(new Error(`${name} exited before listening: ${output}`)));
    });
    return { origin: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
