/**
 * The package as a consumer gets it: built into a directory of its own, packed with `npm pack`, and
 * installed from the tarball. Not from `dist/`: test files run in parallel, and test/readme.test.ts
 * rebuilds it (`npm start` runs `prestart`). test/package.test.ts, test/extras/cli/package-bin.test.ts and
 * test/extras/conformance/package.test.ts install what this packs.
 */
import { execFile } from 'node:child_process';
import { copyFile, cp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './process.js';

const run = promisify(execFile);

/** The fields of package.json the packing reads. */
interface Manifest {
  name: string;
  version: string;
  files: string[];
}

/** The repository's package.json. */
export const MANIFEST = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The name `npm pack` gives the tarball, as the README names it. */
export const TARBALL = `${MANIFEST.name}-${MANIFEST.version}.tgz`;

/** The variables that say which certificate authorities to trust, as a user's shell behind a TLS-inspecting proxy sets them. */
const TRUST = ['NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR'];

/**
 * The environment of npm and of a consumer's processes: quiet, without coverage collection, which
 * would only slow them down, and with the machine's trusted authorities. npm reads the registry's
 * entry for `pg` (an optional peer) while it installs the tarball: it takes the copy in its cache
 * when there is one, and otherwise must reach the registry; without the authorities, a Node that
 * bundles its own (the matrix's) failed each attempt and waited 70 s to fall back to the cache.
 */
export function consumerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const trust = Object.fromEntries(TRUST.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
  return {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? tmpdir(),
    NO_COLOR: '1',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    ...trust,
    ...extra,
  };
}

/** Options of packPackage. */
export interface PackOptions {
  /** An empty directory to build the package in. */
  stage: string;
  /** Where the tarball goes. */
  destination: string;
}

/**
 * Builds the package into `stage` with the files package.json ships, packs it there, and resolves
 * to the tarball's path in `destination`. `npm pack` runs with `--ignore-scripts`, as its `prepack`
 * (the build) is done here, into the stage, which has no sources to build from.
 */
export async function packPackage({ stage, destination }: PackOptions): Promise<string> {
  await run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(stage, 'dist')], { cwd: ROOT });
  await copyFile(join(ROOT, 'package.json'), join(stage, 'package.json'));
  for (const entry of MANIFEST.files.filter((file) => !file.startsWith('dist/'))) {
    await cp(join(ROOT, entry), join(stage, entry), { recursive: true });
  }
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', destination], { cwd: stage, env: consumerEnv() });
  return join(destination, TARBALL);
}

/** Installs a tarball into an existing project, without scripts, as a test's consumer. */
export async function installTarball(consumer: string, tarball: string): Promise<void> {
  await run('npm', ['install', '--silent', '--ignore-scripts', tarball], { cwd: consumer, env: consumerEnv() });
}
