import { COMMAND_SUMMARIES } from './commands.js';
import type { CommandSpec } from './commands.js';
import type { AnySetting } from './settings.js';

/** Width of the help text, so it reads in an 80-column terminal. */
const WIDTH = 78;
/** Indentation of a setting's description and default under its flag. */
const INDENT = '      ';

/** A paragraph broken into lines of at most WIDTH characters (a longer word stands alone). */
function wrap(paragraph: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/**
 * One setting in `--help`: a head line with the flag (or "(no flag)") and its value, then the
 * environment variable, then the description and `default: …` lines. test/extras/cli/settings-docs.test.ts
 * reads this shape back.
 */
function settingLines(setting: AnySetting): string[] {
  const flag = setting.flag === undefined ? '(no flag)' : `${setting.flag} ${setting.kind.hint}`;
  return [`  ${flag.padEnd(36)}${setting.env}`, ...wrap(setting.description, INDENT), `${INDENT}default: ${setting.defaultText}`];
}

/** The `--help` text of one command. */
export function commandHelp(name: string, spec: CommandSpec): string {
  const [first = '', ...others] = spec.usage;
  const lines = [
    ...wrap(`petstore-reference ${name}: ${spec.summary}`, ''),
    '',
    `Usage: ${first}`,
    ...others.map((usage) => `       ${usage}`),
    '',
    'Options:',
    ...spec.settings.flatMap(settingLines),
    `  ${'-h, --help'.padEnd(36)}print this text`,
    ...spec.notes.flatMap((note) => ['', ...wrap(note, '')]),
  ];
  return `${lines.join('\n')}\n`;
}

/** Options of topHelp. */
export interface TopHelpOptions {
  /** The folder of the guides the README links to, as installed beside the command. */
  docsDirectory: string;
}

/** The top-level `--help`: the commands, and where the documentation is. */
export function topHelp({ docsDirectory }: TopHelpOptions): string {
  return [
    'petstore-reference: the reference server of the Petstore interface 1.0.0, and its tools.',
    '',
    'Usage: petstore-reference [command] [options]',
    '',
    'Commands:',
    ...COMMAND_SUMMARIES.map(([name, summary]) => `  ${name.padEnd(13)}${summary}`),
    '',
    '  petstore-reference <command> --help   the options of a command',
    '  petstore-reference --version          the version of this package',
    '',
    'Without a command, serve runs with the options given.',
    '',
    'Documentation, installed with this command:',
    `  ${docsDirectory}`,
    '  the guides the README links to; README.md is in the folder above',
    '',
  ].join('\n');
}
