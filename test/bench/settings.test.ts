import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BENCH_USAGE, benchCommand, DEFAULT_OUTPUT, readSettings } from '../../bench/settings.js';

const ROOT = '/repository';

describe('readSettings()', () => {
  test('readSettings() gives the defaults of the standard run, with no revision to run against', () => {
    const settings = readSettings([], ROOT);
    assert.deepEqual(settings, {
      rounds: 5,
      durationSeconds: 5,
      warmupSeconds: 2,
      isMetricsRun: true,
      outputPath: `${ROOT}/${DEFAULT_OUTPUT}`,
      nodeMajor: undefined,
      againstRevision: undefined,
      isHelp: false,
    });
  });

  test('readSettings() takes the revision of --against as given, beside the other options', () => {
    for (const revision of ['762c6c9', 'v3.0.0', 'main~3', 'origin/release-3.0', 'HEAD^']) {
      const settings = readSettings(['--against', revision, '--rounds', '2', '--duration', '3'], ROOT);
      assert.equal(settings.againstRevision, revision);
      assert.equal(settings.rounds, 2);
      assert.equal(settings.durationSeconds, 3);
    }
    assert.equal(readSettings(['--against=762c6c9'], ROOT).againstRevision, '762c6c9');
  });

  test('readSettings() refuses an --against that git would read as an option or that is no revision, naming the option', () => {
    for (const argv of [['--against=-x'], ['--against=--output=/etc/passwd'], ['--against', ''], ['--against', 'two words'], ['--against', 'tab\there']]) {
      assert.throws(() => readSettings(argv, ROOT), /^Error: --against needs a git revision such as 762c6c9 or v3\.0\.0, not /, argv.join(' '));
    }
  });

  test('readSettings() refuses --against without a revision, and unknown options, pointing at --help', () => {
    assert.throws(() => readSettings(['--against'], ROOT), /npm run bench -- --help lists the options/);
    assert.throws(() => readSettings(['--agianst', '762c6c9'], ROOT), /Unknown option '--agianst'.*--help lists the options/);
  });

  test('readSettings() reads --help, and the usage it prints documents --against with the previous release', () => {
    assert.equal(readSettings(['--help'], ROOT).isHelp, true);
    assert.match(BENCH_USAGE, /^ {2}--against <rev> {5}also run the project as built at a git revision/m);
    assert.match(BENCH_USAGE, /--against 762c6c9/);
  });

  test('benchCommand() repeats --against in the command the report gives, and leaves it out without one', () => {
    assert.equal(
      benchCommand(readSettings(['--against', 'v3.0.0', '--rounds', '2', '--no-metrics'], ROOT)),
      'npm run bench -- --rounds 2 --duration 5 --warmup 2 --no-metrics --against v3.0.0',
    );
    assert.equal(benchCommand(readSettings([], ROOT)), 'npm run bench -- --rounds 5 --duration 5 --warmup 2');
  });
});
