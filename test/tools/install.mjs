// Installs the test tools (test/tools/package.json, locked by test/tools/package-lock.json) into
// test/tools/node_modules when they are missing or were installed from another lock file: npm test
// runs it first (its pretest), as do the benchmarks and scripts that need a tool.
//
//   node test/tools/install.mjs         # npm ci in test/tools/, only when needed
//   node test/tools/install.mjs --ci    # npm ci in test/tools/ every time, as CI does on a fresh clone
//
// Plain JavaScript, so it runs before anything else is installed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TOOLS = fileURLToPath(new URL('.', import.meta.url));
const STAMP = fileURLToPath(new URL('./node_modules/.installed-from', import.meta.url));

/** What the install follows, as one hash: the manifest and the lock file. */
function lockHash() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(new URL(`./${file}`, import.meta.url)));
  return hash.digest('hex');
}

const isForced = process.argv.includes('--ci');
const wanted = lockHash();
if (!isForced && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === wanted) {
  process.stdout.write('Test tools are installed (test/tools/node_modules matches test/tools/package-lock.json)\n');
} else {
  process.stdout.write(`Installing the test tools: npm ci in test/tools/ (${isForced ? 'as CI does' : existsSync(STAMP) ? 'the lock file changed' : 'not installed yet'})\n`);
  // npm.cmd on Windows is a batch file, which only a shell starts.
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: TOOLS, stdio: 'inherit', shell: process.platform === 'win32' });
  if (npm.status !== 0) {
    process.stderr.write(`npm ci in test/tools/ failed (${npm.error?.message ?? `exit ${npm.status ?? npm.signal}`}): the tests that need a tool cannot run\n`);
    process.exit(1);
  }
  writeFileSync(STAMP, wanted);
}
