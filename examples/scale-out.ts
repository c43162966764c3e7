/**
 * Starts N petstore server processes on consecutive ports over one PostgreSQL database: the shape
 * of a scaled-out deployment, with this script standing in for the process supervisor. Put any
 * HTTP load balancer in front of the printed URLs. Ctrl-C or SIGTERM stops them all gracefully.
 *
 *   npx tsx examples/scale-out.ts [processes]        (default 3)
 *
 * PETSTORE_DATABASE_URL  the shared database; unset: a throwaway PostgreSQL cluster is started in
 *                        a temporary directory (needs the PostgreSQL server binaries) and deleted on exit
 * PETSTORE_API_KEYS      keys every process accepts; unset: one is generated and printed
 * BASE_PORT              first port (default 8081); 0 gives each process a free port
 * HOST                   interface to listen on (default 127.0.0.1)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { findPostgresBinaries, startPostgresCluster } from '../scripts/postgres-cluster.js';
import type { PostgresCluster } from '../scripts/postgres-cluster.js';

const ROOT = resolve(import.meta.dirname, '..');

interface Instance {
  child: ChildProcess;
  url: string;
  exited: Promise<number | string>;
}

function startInstance(port: number, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'extras', 'cli', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? -1)));
  return new Promise((ready, fail) => {
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString('utf8');
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) ready({ child, url: match[1], exited });
    });
    void exited.then((code) => fail(new Error(`server process on port ${port} exited with ${code} before listening`)));
  });
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? '3');
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new Error('the number of processes must be an integer from 1 to 64');
  const basePort = Number(process.env['BASE_PORT'] ?? '8081');
  const apiKeys = process.env['PETSTORE_API_KEYS'] ?? randomBytes(18).toString('base64url');

  let cluster: PostgresCluster | undefined;
  let databaseUrl = process.env['PETSTORE_DATABASE_URL'];
  if (databaseUrl === undefined || databaseUrl === '') {
    const binaries = await findPostgresBinaries();
    if (binaries === undefined) throw new Error('set PETSTORE_DATABASE_URL, or install the PostgreSQL server binaries (Debian: apt-get install postgresql) for a throwaway database');
    cluster = await startPostgresCluster(binaries, { isDurable: true });
    databaseUrl = cluster.url;
    process.stderr.write(`Started a throwaway PostgreSQL ${cluster.version} at ${cluster.url}; it is deleted on exit.\n`);
  }

  const env = { PETSTORE_DATABASE_URL: databaseUrl, PETSTORE_API_KEYS: apiKeys, HOST: process.env['HOST'] ?? '127.0.0.1' };
  const instances: Instance[] = [];
  let isStopping = false;
  const stop = async (code: number): Promise<void> => {
    // npx and tsx each pass a signal on, so it can arrive more than once: stop only once.
    if (isStopping) return;
    isStopping = true;
    for (const instance of instances) instance.child.kill('SIGTERM');
    await Promise.all(instances.map((instance) => instance.exited));
    await cluster?.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    // One after another, so the first process creates the table and the others find it.
    for (let index = 0; index < count; index++) instances.push(await startInstance(basePort === 0 ? 0 : basePort + index, env));
  } catch (error) {
    process.stderr.write(`scale-out: ${error instanceof Error ? error.message : String(error)}\n`);
    return stop(1);
  }
  for (const instance of instances) {
    void instance.exited.then((code) => {
      if (isStopping) return;
      process.stderr.write(`scale-out: the server process at ${instance.url} exited with ${code}; stopping the others\n`);
      void stop(1);
    });
  }

  process.stdout.write(`${count} petstore processes share one PostgreSQL database:\n`);
  for (const instance of instances) process.stdout.write(`  ${instance.url}\n`);
  if (process.env['PETSTORE_API_KEYS'] === undefined) process.stdout.write(`API key for this run: ${apiKeys}\n`);
  const [first, second] = [instances[0], instances.at(-1)];
  if (first !== undefined && second !== undefined) {
    process.stdout.write(
      `Try: curl -H 'Authorization: Bearer ${apiKeys.split(',')[0]}' -H 'Content-Type: application/json' -d '{"name":"Rex","categoryId":1}' ${first.url}/pets\n` +
        `     curl -H 'Authorization: Bearer ${apiKeys.split(',')[0]}' ${second.url}/pets\n` +
        'Ctrl-C stops them all.\n',
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`scale-out: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
