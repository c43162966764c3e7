import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { median, ROOT } from './support.js';

/** Milliseconds from spawning the server to the answer of its first authenticated request. */
async function startupOnce(command: readonly string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', PETSTORE_API_KEYS: 'startup-key-0123456' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((done, fail) => {
      let output = '';
      child.stdout.on('data', (data: Buffer) => {
        output += data.toString();
        const match = /listening on (\S+)/.exec(output);
        if (match?.[1] !== undefined) done(match[1]);
      });
      child.once('exit', (code) => fail(new Error(`server exited with ${code}`)));
    });
    const response = await fetch(`${url}/pets`, { headers: { authorization: 'Bearer startup-key-0123456' } });
    if (response.status !== 200) throw new Error(`first request answered ${response.status}`);
    await response.text();
    return performance.now() - started;
  } finally {
    child.kill('SIGKILL');
  }
}

/** Median startup time over `runs` runs, compiled (`node dist/extras/cli/main.js`) and through tsx. */
export async function runStartupBench(runs: number): Promise<{ compiledMs: number; tsxMs: number }> {
  const compiled: number[] = [];
  const throughTsx: number[] = [];
  for (let run = 0; run < runs; run++) {
    compiled.push(await startupOnce([process.execPath, resolve(ROOT, 'dist', 'extras', 'cli', 'main.js')]));
    throughTsx.push(await startupOnce([process.execPath, '--import', 'tsx', resolve(ROOT, 'extras', 'cli', 'main.ts')]));
  }
  return { compiledMs: median(compiled), tsxMs: median(throughTsx) };
}
