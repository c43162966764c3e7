import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withRun } from '../../bench/results-file.js';

/** A run's report as benchReport writes it, reduced to its shape: a title, a machine line, sections. */
function report(version: string, figure: string): string {
  return `# Benchmark results\n\nMachine: 2 cores; Node ${version}; fastify 5.\n\n## HTTP\n\n| scenario | project / fastify |\n|---|---:|\n| a | ${figure} |\n`;
}

/** The Node versions of the file's sections, in their order. */
function versionsOf(file: string): string[] {
  return [...file.matchAll(/^## Node (\S+)$/gm)].map((match) => match[1] ?? '');
}

describe('bench/RESULTS.md in sections, one per Node major', () => {
  test('withRun() puts a run into an empty file as the section of its Node, its headings one level down', () => {
    const file = withRun('', report('v24.21.0', '1.26×'), 'v24.21.0');
    assert.deepEqual(versionsOf(file), ['24.21.0']);
    assert.match(file, /^# Benchmark results$/m);
    assert.match(file, /^### HTTP$/m);
    assert.doesNotMatch(file, /^## HTTP$/m);
    assert.match(file, /<!-- bench:node-24 -->\n## Node 24\.21\.0\n[\s\S]*\| a \| 1\.26× \|\n<!-- \/bench:node-24 -->/);
  });

  test('withRun() keeps the runs of other majors, newest major first, and replaces the run of its own', () => {
    let file = withRun('', report('v20.20.2', '1.11×'), 'v20.20.2');
    file = withRun(file, report('v26.10.0', '1.18×'), 'v26.10.0');
    file = withRun(file, report('v24.21.0', '1.26×'), 'v24.21.0');
    assert.deepEqual(versionsOf(file), ['26.10.0', '24.21.0', '20.20.2']);
    file = withRun(file, report('v26.11.0', '1.20×'), 'v26.11.0');
    assert.deepEqual(versionsOf(file), ['26.11.0', '24.21.0', '20.20.2']);
    assert.doesNotMatch(file, /1\.18×/);
    assert.match(file, /1\.20×[\s\S]*1\.26×[\s\S]*1\.11×/);
  });

  test('withRun() keeps what the file holds outside its sections out, and refuses a version without a major', () => {
    const file = withRun('# Benchmark results\n\nnothing\n', report('v26.10.0', '1.18×'), 'v26.10.0');
    assert.deepEqual(versionsOf(file), ['26.10.0']);
    assert.doesNotMatch(file, /nothing/);
    assert.equal(withRun(file, report('v26.10.0', '1.18×'), 'v26.10.0'), file, 'the same run again leaves the file as it is');
    assert.throws(() => withRun('', report('v26.10.0', '1×'), 'next'), /cannot read the Node major of "next"/);
  });
});
