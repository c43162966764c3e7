import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { COMMANDS } from '../../../extras/cli/commands.js';
import { ALL_SETTINGS } from '../../../extras/cli/settings.js';
import type { AnySetting } from '../../../extras/cli/settings.js';
import { ROOT, runMain } from '../../support/process.js';

/** What the three places must agree on for one setting. */
interface Row {
  env: string;
  flag: string;
  defaultText: string;
}

/** How the table of settings names one: `—` where a setting has no flag. */
function rowOf(setting: AnySetting): Row {
  return { env: setting.env, flag: setting.flag ?? '—', defaultText: setting.defaultText };
}

/** The settings `--help` lists: a line with the flag (or "(no flag)") and the variable, and later a `default:` line. */
function helpRows(help: string): Row[] {
  const rows: Row[] = [];
  for (const line of help.split('\n')) {
    const head = /^ {2}(--[a-z-]+) \S+ +([A-Z][A-Z0-9_]*)$|^ {2}\(no flag\) +([A-Z][A-Z0-9_]*)$/.exec(line);
    if (head !== null) rows.push({ env: head[2] ?? head[3] ?? '', flag: head[1] ?? '—', defaultText: '' });
    const defaultLine = /^ {6}default: (.+)$/.exec(line);
    const last = rows.at(-1);
    if (defaultLine !== null && last !== undefined) last.defaultText = defaultLine[1] ?? '';
  }
  return rows;
}

/** The rows of the first Markdown table headed `| variable | flag | … | default |` after `heading`, Markdown code marks removed. */
function tableRows(markdown: string, heading: string): Row[] {
  const section = markdown.slice(markdown.indexOf(`\n${heading}\n`));
  const table = section.slice(section.indexOf('\n| variable | flag |'));
  const lines = table.split('\n').slice(3);
  const rows: Row[] = [];
  for (const line of lines) {
    if (!line.startsWith('|')) break;
    const cells = line.slice(1, -1).split(' | ').map((cell) => cell.trim().replaceAll('`', ''));
    rows.push({ env: cells[0] ?? '', flag: cells[1] ?? '', defaultText: cells.at(-1) ?? '' });
  }
  return rows;
}

describe('the settings in --help and docs/operations.md', () => {
  test('serve --help and docs/operations.md\'s settings table list every setting with the same flag, variable and default, in the same order', async () => {
    const expected = ALL_SETTINGS.map(rowOf);
    const operations = await readFile(join(ROOT, 'docs', 'operations.md'), 'utf8');
    const help = await runMain({}, ['serve', '--help']);
    assert.equal(help.code, 0);
    assert.deepEqual(helpRows(help.stdout), expected, 'serve --help');
    assert.deepEqual(tableRows(operations, '## Settings'), expected, 'docs/operations.md ## Settings');
  });

  test('the --help of every command lists exactly the settings that command reads, as the tables do', async () => {
    for (const [name, spec] of Object.entries(COMMANDS)) {
      const { code, stdout } = await runMain({}, [name, '--help']);
      assert.equal(code, 0, name);
      assert.deepEqual(helpRows(stdout), spec.settings.map(rowOf), `${name} --help`);
    }
    const conformance = await runMain({}, ['conformance', '--help']);
    assert.equal(conformance.code, 0);
    assert.deepEqual(helpRows(conformance.stdout), [], 'conformance --help has options of its own, no server settings');
  });

  test('the environment is read only through the table: process.env and process.argv in extras/cli/main.ts alone, variables by name in extras/cli/settings.ts alone', async () => {
    const files = (await readdir(join(ROOT, 'extras', 'cli'))).filter((file) => file.endsWith('.ts'));
    for (const file of files) {
      const text = await readFile(join(ROOT, 'extras', 'cli', file), 'utf8');
      if (file !== 'main.ts') assert.doesNotMatch(text, /process\.(env|argv)/, file);
      if (file !== 'settings.ts') {
        for (const setting of ALL_SETTINGS) assert.ok(!text.includes(`'${setting.env}'`), `${file} names ${setting.env}`);
      }
    }
  });
});
