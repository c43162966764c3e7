import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..', '..');
const INTERFACE = readFileSync(join(ROOT, 'docs', 'interface.md'), 'utf8');

/** The sections of docs/interface.md by number (`4.1`), each with its own text up to the next heading. */
function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const headings = [...markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?) .*$/gm)];
  headings.forEach((heading, index) => {
    const end = headings[index + 1]?.index ?? markdown.length;
    sections.set(heading[1] as string, markdown.slice(heading.index, end));
  });
  return sections;
}

const SECTIONS = sectionsOf(INTERFACE);

/** The text of a section and of its subsections (`4` holds 4.1 to 4.4). */
function textOf(section: string): string | undefined {
  const own = [...SECTIONS].filter(([number]) => number === section || number.startsWith(`${section}.`)).map(([, text]) => text);
  return own.length === 0 ? undefined : own.join('\n');
}

async function trackedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, maxBuffer: 1 << 24 });
  return stdout.split('\n').filter((file) => /\.(ts|md|mjs)$/.test(file) && existsSync(join(ROOT, file)));
}

/** Why one `[spec …]` citation does not resolve, or undefined when each section it names exists and says what it cites. */
function citationProblem(citation: string): string | undefined {
  const references = citation.split(/[:;]/)[0] ?? '';
  let section: string | undefined;
  for (const part of references.split(',').map((token) => token.trim())) {
    const range = /^(\d+)[–-](\d+)$/.exec(part);
    const numbers = range === null ? [/^\d+(?:\.\d+)?/.exec(part)?.[0]].filter((number) => number !== undefined) : [range[1], range[2]];
    if (numbers.length > 0) {
      for (const number of numbers) if (textOf(number as string) === undefined) return `§${number} does not exist`;
      section = numbers[0];
    } else if (section === undefined || !(textOf(section) ?? '').includes(part)) {
      return `§${section ?? '?'} does not say ${JSON.stringify(part)}`;
    }
  }
  return section === undefined ? 'it names no section' : undefined;
}

test('docs/interface.md keeps the section numbers §1 to §9 that the code and docs cite', () => {
  for (let part = 1; part <= 9; part++) assert.ok(SECTIONS.has(String(part)), `§${part}`);
  for (const section of ['4.1', '4.2', '4.3', '4.4', '5.1', '5.2', '5.3', '5.4', '5.5']) assert.ok(SECTIONS.has(section), `§${section}`);
});

test('every [spec x.y] citation in the code and docs names a section of docs/interface.md that says it', async () => {
  const problems: string[] = [];
  let citations = 0;
  // This file names the pattern itself, not the interface.
  for (const file of (await trackedFiles()).filter((path) => path !== 'test/docs/interface.test.ts')) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/\[spec ([^\]]+)\]/g)) {
      citations++;
      const problem = citationProblem(match[1] as string);
      if (problem !== undefined) problems.push(`${file}: [spec ${match[1]}]: ${problem}`);
    }
  }
  assert.ok(citations > 100, `${citations} citations found`);
  assert.deepEqual(problems, []);
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)) {
    const anchor = anchorOf(match[1] as string);
    const count = seen.get(anchor) ?? 0;
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  return anchors;
}

test('every relative link and anchor in README.md and docs/ resolves inside the repository', async () => {
  const documents = (await trackedFiles()).filter((file) => file === 'README.md' || (file.startsWith('docs/') && file.endsWith('.md')));
  const problems: string[] = [];
  let links = 0;
  for (const document of documents) {
    const text = readFileSync(join(ROOT, document), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (/^[a-z]+:/i.test(target)) continue;
      links++;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(ROOT, document) : resolve(ROOT, dirname(document), path);
      if (relative(ROOT, file).startsWith('..')) problems.push(`${document}: ${target} leaves the repository`);
      else if (!existsSync(file)) problems.push(`${document}: ${target} does not exist`);
      else if (anchor !== undefined && /^L\d+$/.test(anchor) && !file.endsWith('.md')) {
        // A line of a source file, as GitHub anchors it (`#L42`).
        if (!statSync(file).isFile() || readFileSync(file, 'utf8').split('\n').length < Number(anchor.slice(1))) problems.push(`${document}: ${target} names no line`);
      } else if (anchor !== undefined && (!statSync(file).isFile() || !anchorsOf(readFileSync(file, 'utf8')).has(anchor))) problems.push(`${document}: ${target} names no heading`);
    }
  }
  assert.ok(links > 20, `${links} links found`);
  assert.deepEqual(problems, []);
});
