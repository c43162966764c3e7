import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The superuser of a throwaway cluster; it trusts loopback connections, so it needs no password. */
const SUPERUSER = 'petstore';

/** Account that owns a throwaway cluster when we run as root, because initdb and postgres refuse root. */
const CREATED_ACCOUNT = 'petstore-pg';

/** Options of startPostgresCluster. */
export interface PostgresClusterOptions {
  /** Whether commits wait for the disk; off makes tests fast, on makes benchmarks honest. Default false. */
  isDurable?: boolean;
  /** CPU list for `taskset -c` to pin the server to, e.g. `1`. */
  cpus?: string;
  /** Extra `postgresql.conf` settings. */
  settings?: Readonly<Record<string, string | number>>;
}

/** A running throwaway PostgreSQL cluster in a temporary directory. */
export interface PostgresCluster {
  /** Connection URL of its `postgres` database over loopback TCP. */
  url: string;
  /** Its TCP port on 127.0.0.1. */
  port: number;
  /** Its PostgreSQL version, e.g. `15.18`. */
  version: string;
  /** Its data directory (`postmaster.pid` there names the server's process). */
  dataDirectory: string;
  /**
   * Stops the server as a crash would (`pg_ctl -m immediate`: every session cut, no checkpoint) and
   * starts it again on the same port and data, which recovers from the write-ahead log.
   */
  restart(): Promise<void>;
  /** Stops the server and deletes its directory; safe to call twice. */
  stop(): Promise<void>;
}

function hasInitdb(directory: string): boolean {
  return existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl'));
}

/**
 * Where the PostgreSQL server binaries are: `pg_config --bindir`, else the newest
 * /usr/lib/postgresql/<version>/bin, else PATH. Undefined when none has initdb and pg_ctl.
 */
export async function findPostgresBinaries(): Promise<string | undefined> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    if (hasInitdb(stdout.trim())) return stdout.trim();
  } catch {
    // pg_config is only in the client or dev packages; the other places still apply.
  }
  const versions = await readdir('/usr/lib/postgresql').catch(() => []);
  for (const version of versions.sort((left, right) => Number(right) - Number(left))) {
    const directory = join('/usr/lib/postgresql', version, 'bin');
    if (hasInitdb(directory)) return directory;
  }
  return (process.env['PATH'] ?? '').split(delimiter).find((directory) => directory !== '' && hasInitdb(directory));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

/** Who runs the cluster: ourselves, or (as root) an unprivileged account, created when missing. */
async function clusterAccount(): Promise<{ uid: number; gid: number; prefix: string[] } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', CREATED_ACCOUNT]) {
    try {
      const uid = Number((await run('id', ['-u', name])).stdout.trim());
      const gid = Number((await run('id', ['-g', name])).stdout.trim());
      return { uid, gid, prefix: ['runuser', '-u', name, '--'] };
    } catch {
      // No such account; try the next one.
    }
  }
  await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', CREATED_ACCOUNT]);
  return clusterAccount();
}

/**
 * Initialises and starts a throwaway cluster on a free loopback port, with its socket and data in a
 * new temporary directory. As root it runs as an unprivileged account (initdb refuses root).
 */
export async function startPostgresCluster(binaries: string, options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const account = await clusterAccount();
  const directory = await mkdtemp(join(tmpdir(), 'petstore-pg-'));
  const data = join(directory, 'data');
  if (account !== undefined) await chown(directory, account.uid, account.gid);
  const pin = options.cpus === undefined ? [] : ['taskset', '-c', options.cpus];
  const command = async (program: string, args: string[]): Promise<string> => {
    const [file, ...rest] = [...(account?.prefix ?? []), ...pin, join(binaries, program), ...args];
    return (await run(file as string, rest, { cwd: directory })).stdout;
  };
  const stopNow = (): void => {
    try {
      execFileSync(...commandLine(account?.prefix ?? [], join(binaries, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']), { cwd: directory, stdio: 'ignore' });
    } catch {
      // Not running (any more).
    }
    rmSync(directory, { recursive: true, force: true });
  };
  // A test process that dies without its after() hooks must not leave a server running.
  process.once('exit', stopNow);
  try {
    await command('initdb', ['-D', data, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    const isDurable = options.isDurable ?? false;
    const port = await freePort();
    const settings: Record<string, string | number> = {
      port,
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: `'${directory}'`,
      max_connections: 200,
      fsync: isDurable ? 'on' : 'off',
      synchronous_commit: isDurable ? 'on' : 'off',
      full_page_writes: isDurable ? 'on' : 'off',
      ...options.settings,
    };
    await appendFile(join(data, 'postgresql.conf'), Object.entries(settings).map(([key, value]) => `${key} = ${value}\n`).join(''));
    // -l on every start: without it the server would write to pg_ctl's stdout, which execFile waits on.
    const start = (): Promise<string> => command('pg_ctl', ['-D', data, '-l', join(directory, 'server.log'), '-w', '-t', '60', 'start']);
    await start();
    const version = /\d+(\.\d+)+/.exec(await command('postgres', ['--version']))?.[0] ?? 'unknown';
    let isStopped = false;
    return {
      url: `postgresql://${SUPERUSER}@127.0.0.1:${port}/postgres`,
      port,
      version,
      dataDirectory: data,
      async restart(): Promise<void> {
        await command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        await start();
      },
      async stop(): Promise<void> {
        if (isStopped) return;
        isStopped = true;
        process.removeListener('exit', stopNow);
        await command('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
        rmSync(directory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    const log = await readFile(join(directory, 'server.log'), 'utf8').catch(() => '');
    process.removeListener('exit', stopNow);
    stopNow();
    throw new Error(`Could not start a throwaway PostgreSQL cluster with ${binaries}: ${String(error)}\n${log}`, { cause: error });
  }
}

function commandLine(prefix: string[], program: string, args: string[]): [string, string[]] {
  const [file, ...rest] = [...prefix, program, ...args];
  return [file as string, rest];
}
