import { execFile, execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { appendFile, chown, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The superuser of a throwaway cluster; it trusts loopback connections, so it needs no password. */
const SUPERUSER = 'postgres';

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
  /** The ids of the server's processes: the postmaster and every process it started. */
  processes(): Promise<number[]>;
  /** Stops the server and deletes its directory; safe to call twice. */
  stop(): Promise<void>;
}

/** The ids of `parent` and of every process whose parent it is, read from /proc. */
async function processTree(parent: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc').catch(() => [])) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const stat = await readFile(join('/proc', entry, 'stat'), 'utf8').catch(() => '');
    // Fields after the command name, which is in parentheses and may hold spaces: state, then the parent's id.
    const parentId = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (parentId === String(parent)) children.push(Number(entry));
  }
  return [parent, ...children];
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
      async processes(): Promise<number[]> {
        const postmaster = Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
        return processTree(postmaster);
      },
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

/** Where Debian's package puts PgBouncer; PATH is searched too. */
const PGBOUNCER_PLACES = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'];

/** The PgBouncer binary: Debian's place, else PATH; undefined when there is none. */
export function findPgBouncer(): string | undefined {
  const onPath = (process.env['PATH'] ?? '').split(delimiter).filter((directory) => directory !== '').map((directory) => join(directory, 'pgbouncer'));
  return [...PGBOUNCER_PLACES, ...onPath].find((file) => existsSync(file));
}

/** Options of startPgBouncer. */
export interface PgBouncerOptions {
  /** Settings of the `[pgbouncer]` section, e.g. `pool_mode`; where to listen, authentication and files are set here and win. */
  settings: Readonly<Record<string, string>>;
  /** Roles that may connect (PgBouncer's `trust` still needs each in its user list). Default: the cluster's superuser. */
  users?: readonly string[];
}

/** A running PgBouncer in front of a throwaway cluster. */
export interface PgBouncer {
  /** The cluster's URL with PgBouncer's port: every database of the cluster, through it. */
  url: string;
  port: number;
  /** The configuration file it runs with. */
  configuration: string;
  /** Stops it and deletes its directory; safe to call twice. */
  stop(): Promise<void>;
}

/** Whether a process with this id runs. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts PgBouncer on a free loopback port in front of `cluster` (every database, `auth_type =
 * trust`, as the cluster trusts loopback), with `settings` in its `[pgbouncer]` section. As root it
 * runs as the cluster's account, since PgBouncer refuses root. Resolves once it accepts connections.
 */
export async function startPgBouncer(binary: string, cluster: PostgresCluster, options: PgBouncerOptions): Promise<PgBouncer> {
  const account = await clusterAccount();
  const directory = await mkdtemp(join(tmpdir(), 'petstore-pgbouncer-'));
  if (account !== undefined) await chown(directory, account.uid, account.gid);
  const port = await freePort();
  const file = (name: string): string => join(directory, name);
  const users = options.users ?? [SUPERUSER];
  await writeFile(file('userlist.txt'), users.map((user) => `"${user}" ""\n`).join(''));
  const settings: Record<string, string> = {
    ...options.settings,
    listen_addr: '127.0.0.1',
    listen_port: String(port),
    unix_socket_dir: '',
    auth_type: 'trust',
    auth_file: file('userlist.txt'),
    logfile: file('pgbouncer.log'),
    pidfile: file('pgbouncer.pid'),
  };
  const configuration = [
    '[databases]',
    `* = host=127.0.0.1 port=${cluster.port}`,
    '[pgbouncer]',
    ...Object.entries(settings).map(([key, value]) => `${key} = ${value}`),
  ].join('\n');
  await writeFile(file('pgbouncer.ini'), `${configuration}\n`);
  if (account !== undefined) {
    for (const name of ['userlist.txt', 'pgbouncer.ini']) await chown(file(name), account.uid, account.gid);
  }
  const pid = async (): Promise<number | undefined> => {
    const text = await readFile(file('pgbouncer.pid'), 'utf8').catch(() => '');
    return /^[0-9]+/.test(text.trim()) ? Number(text.trim()) : undefined;
  };
  let known: number | undefined;
  const stopNow = (): void => {
    if (known !== undefined && isRunning(known)) process.kill(known, 'SIGKILL');
    rmSync(directory, { recursive: true, force: true });
  };
  process.once('exit', stopNow);
  try {
    // -d: it forks into the background once its configuration is loaded, and writes its pid file.
    await run(...commandLine(account?.prefix ?? [], binary, ['-d', file('pgbouncer.ini')]), { cwd: directory });
    for (let round = 0; round < 100 && known === undefined; round++) {
      known = await pid();
      if (known === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (known === undefined) throw new Error('PgBouncer wrote no pid file within 5 s');
    await waitForPort(port);
  } catch (error) {
    const log = await readFile(file('pgbouncer.log'), 'utf8').catch(() => '');
    process.removeListener('exit', stopNow);
    stopNow();
    throw new Error(`Could not start PgBouncer (${binary}): ${String(error)}\n${log}`, { cause: error });
  }
  let isStopped = false;
  return {
    url: cluster.url.replace(`:${cluster.port}/`, `:${port}/`),
    port,
    configuration,
    async stop(): Promise<void> {
      if (isStopped) return;
      isStopped = true;
      process.removeListener('exit', stopNow);
      const running = known;
      if (running !== undefined && isRunning(running)) {
        process.kill(running, 'SIGTERM');
        for (let round = 0; round < 100 && isRunning(running); round++) await new Promise((resolve) => setTimeout(resolve, 20));
        if (isRunning(running)) process.kill(running, 'SIGKILL');
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Resolves once something accepts TCP connections on the loopback port; rejects after 5 s. */
async function waitForPort(port: number): Promise<void> {
  for (let round = 0; round < 100; round++) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (isOpen) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing accepted connections on 127.0.0.1:${port} within 5 s`);
}
