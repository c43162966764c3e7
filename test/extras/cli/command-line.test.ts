import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import { Configuration, parseArguments, UsageError } from '../../../extras/cli/command-line.js';
import type { Environment } from '../../../extras/cli/command-line.js';
import { COMMANDS } from '../../../extras/cli/commands.js';
import { ALL_SETTINGS, SETTINGS } from '../../../extras/cli/settings.js';
import type { Setting } from '../../../extras/cli/settings.js';

const SERVE = COMMANDS.serve.settings;

/** The configuration `serve` reads from these arguments and this environment. */
function configure(argv: readonly string[], env: Environment = {}): Configuration {
  return new Configuration(parseArguments('serve', argv, SERVE).flags, env);
}

/** The message of the UsageError a step throws. */
function usageError(step: () => unknown): string {
  try {
    step();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error.message;
  }
  assert.fail('no UsageError');
}

/** A setting's value for a text given as the flag and, separately, as the variable: both must agree. */
function valueOfText<T, D extends T | undefined>(setting: Setting<T, D>, text: string): T | D {
  const fromEnv = new Configuration(new Map(), { [setting.env]: text }).value(setting);
  if (setting.flag === undefined) return fromEnv;
  assert.deepEqual(configure([`${setting.flag}=${text}`]).value(setting), fromEnv, text);
  return fromEnv;
}

describe('parseArguments()', () => {
  test('parseArguments() takes --name value and --name=value alike', () => {
    assert.equal(configure(['--port', '9000']).value(SETTINGS.port), 9000);
    assert.equal(configure(['--port=9000']).value(SETTINGS.port), 9000);
    assert.equal(configure(['--host=::1', '--data', 'pets.journal']).value(SETTINGS.data), 'pets.journal');
  });

  test('parseArguments() takes a boolean flag alone as on, and its next argument as its value unless that is an option', () => {
    assert.equal(configure(['--metrics']).value(SETTINGS.metrics), true);
    assert.equal(configure(['--metrics', '--port', '1']).value(SETTINGS.metrics), true);
    assert.equal(configure(['--metrics', 'no']).value(SETTINGS.metrics), false);
    assert.equal(configure(['--access-log=FALSE']).value(SETTINGS.accessLog), false);
    assert.equal(configure([]).value(SETTINGS.metrics), false);
  });

  test('parseArguments() notes --help and -h', () => {
    assert.equal(parseArguments('serve', ['--port', '1', '--help'], SERVE).isHelp, true);
    assert.equal(parseArguments('serve', ['-h'], SERVE).isHelp, true);
    assert.equal(parseArguments('serve', [], SERVE).isHelp, false);
  });

  test('parseArguments() refuses unknown flags naming them and the accepted ones, and misplaced, repeated or valueless ones', () => {
    const cases: [string, readonly string[], RegExp][] = [
      ['serve', ['--bogus'], /^unknown argument "--bogus": serve accepts --port, --host, --api-keys-file, .*--log-level; see petstore-reference serve --help$/],
      ['serve', ['--bogus=1'], /^unknown argument "--bogus"/],
      ['serve', ['-p', '1'], /^unexpected argument "-p": serve takes options only/],
      ['serve', ['8080'], /^unexpected argument "8080"/],
      ['serve', ['--api-keys', 'k'], /^--api-keys is not an option: a command line is visible to every user of the machine; use --api-keys-file or PETSTORE_API_KEYS$/],
      ['serve', ['--port'], /^--port needs a value: an integer from 0 to 65535$/],
      ['serve', ['--port='], /^--port needs a value/],
      ['serve', ['--host', '--port', '1'], /^--host needs a value/],
      ['serve', ['--port', '1', '--port=2'], /^--port is given more than once$/],
      ['repair', ['--port', '1'], /^--port is not an option of repair; see petstore-reference repair --help$/],
      ['openapi', ['--x'], /^unknown argument "--x": openapi accepts no options but --help/],
    ];
    for (const [command, argv, message] of cases) {
      const settings = command === 'serve' ? SERVE : command === 'repair' ? COMMANDS.repair.settings : COMMANDS.openapi.settings;
      assert.match(usageError(() => parseArguments(command, argv, settings)), message, argv.join(' '));
    }
  });

  test('parseArguments() reads the command line with util.parseArgs, and refuses what it reads apart: grouped short flags, `--`, and a flag\'s value taken by the next flag', async () => {
    const source = await readFile(new URL('../../../extras/cli/command-line.ts', import.meta.url), 'utf8');
    assert.match(source, /^import \{ parseArgs \} from 'node:util';$/m, 'no hand-written parser beside the platform\'s');
    const cases: [readonly string[], RegExp][] = [
      [['-ha'], /^unexpected argument "-ha"/],
      [['--', 'x'], /^unknown argument "--"/],
      [['---x'], /^unknown argument "---x"/],
      [['--help=1'], /^unknown argument "--help"/],
      [['--metrics', '-'], /^unexpected argument "-"/],
      [['--port', '--'], /^--port needs a value/],
    ];
    for (const [argv, message] of cases) assert.match(usageError(() => parseArguments('serve', argv, SERVE)), message, argv.join(' '));
    assert.equal(parseArguments('serve', ['--host', '-x'], SERVE).flags.get(SETTINGS.host), '-x', 'a value may start with one dash');
  });
});

describe('Configuration', () => {
  test('Configuration: a flag beats its variable, and an empty variable is unset', () => {
    assert.equal(configure(['--port', '1'], { PORT: 'not a port' }).value(SETTINGS.port), 1);
    assert.equal(configure([], { PORT: '2' }).value(SETTINGS.port), 2);
    assert.equal(configure([], { PORT: '' }).value(SETTINGS.port), 8080);
    assert.equal(configure([], { PORT: '' }).isSet(SETTINGS.port), false);
    assert.equal(configure(['--port', '1'], { PORT: '2' }).sourceOf(SETTINGS.port), '--port');
    assert.equal(configure([], { PORT: '2' }).sourceOf(SETTINGS.port), 'PORT');
  });

  test('Configuration: each setting without a value has its default', () => {
    const configuration = configure([]);
    for (const setting of ALL_SETTINGS) assert.deepEqual(configuration.value(setting), setting.defaultValue, setting.env);
  });

  test('Configuration: booleans take 1/0, true/false and yes/no in any case, and refuse anything else', () => {
    for (const [text, value] of [['1', true], ['0', false], ['true', true], ['FALSE', false], ['Yes', true], ['nO', false]] as const) {
      assert.equal(valueOfText(SETTINGS.metrics, text), value, text);
      assert.equal(valueOfText(SETTINGS.accessLog, text), value, text);
    }
    for (const text of ['on', 'off', '2', 'y', 'truthy', ' 1']) {
      assert.equal(
        usageError(() => valueOfText(SETTINGS.accessLog, text)),
        `PETSTORE_ACCESS_LOG must be 1, true, yes (on) or 0, false, no (off), in any case, not ${JSON.stringify(text)}`,
      );
      assert.match(usageError(() => configure([`--metrics=${text}`]).value(SETTINGS.metrics)), /^--metrics must be 1, true, yes \(on\)/);
    }
  });

  test('Configuration: every kind refuses what it does not accept, naming the flag or variable and the accepted values', () => {
    const cases: [Setting<unknown, unknown>, string, RegExp][] = [
      [SETTINGS.port, '70000', /^PORT must be an integer from 0 to 65535, not "70000"$/],
      [SETTINGS.port, '-1', /^PORT must be an integer/],
      [SETTINGS.port, '80.5', /^PORT must be an integer/],
      [SETTINGS.durability, 'sometimes', /^PETSTORE_DURABILITY must be one of "fsync", "write", not "sometimes"$/],
      [SETTINGS.logLevel, 'verbose', /^PETSTORE_LOG_LEVEL must be one of "error", "warn", "info", "debug", not "verbose"$/],
      [SETTINGS.shutdownDelay, '-5', /^PETSTORE_SHUTDOWN_DELAY must be a number of seconds from 0 to 3600/],
      [SETTINGS.shutdownDelay, '3601', /^PETSTORE_SHUTDOWN_DELAY must be/],
      [SETTINGS.shutdownDelay, '10s', /^PETSTORE_SHUTDOWN_DELAY must be/],
      [SETTINGS.corsOrigins, 'https://app.example.com/path', /^PETSTORE_CORS_ORIGINS must be "\*" or a comma-separated list of origins/],
      [SETTINGS.corsOrigins, 'app.example.com', /^PETSTORE_CORS_ORIGINS must be/],
      [SETTINGS.corsOrigins, 'https://a.example, ftp://b.example', /^PETSTORE_CORS_ORIGINS must be/],
      [SETTINGS.corsOrigins, ' , ', /^PETSTORE_CORS_ORIGINS must be/],
    ];
    for (const [setting, text, message] of cases) assert.match(usageError(() => valueOfText(setting, text)), message, text);
    assert.match(usageError(() => configure(['--port', 'x'.repeat(80)]).value(SETTINGS.port)), /^--port must be an integer from 0 to 65535, not "x{50}…"$/);
  });

  test('Configuration: values of each kind as accepted', () => {
    assert.equal(valueOfText(SETTINGS.port, '0'), 0);
    assert.equal(valueOfText(SETTINGS.port, '65535'), 65_535);
    assert.equal(valueOfText(SETTINGS.shutdownDelay, '2.5'), 2.5);
    assert.equal(valueOfText(SETTINGS.shutdownDelay, '3600'), 3600);
    assert.equal(valueOfText(SETTINGS.durability, 'write'), 'write');
    assert.equal(valueOfText(SETTINGS.logLevel, 'debug'), 'debug');
    assert.equal(valueOfText(SETTINGS.corsOrigins, '*'), '*');
    assert.deepEqual(valueOfText(SETTINGS.corsOrigins, 'https://App.Example.com, http://localhost:5173,'), ['https://app.example.com', 'http://localhost:5173']);
    // The keys stay text here: parseApiKeysVariable (extras/cli/api-keys.ts) splits and checks them, with messages that never quote a key.
    assert.equal(valueOfText(SETTINGS.apiKeys, ' alpha , beta,,'), ' alpha , beta,,');
  });
});
