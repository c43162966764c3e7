/**
 * bench/RESULTS.md holds one run per Node major, newest major first: the figures users see are the
 * ones on the Node they run, and each version's ratios are measured in one run of their own. A run
 * replaces the section of its major and keeps the others.
 */

/** The file's heading and what it says about its sections. */
const FILE_HEAD = [
  '# Benchmark results',
  '',
  'One run per Node.js major, newest first, each written whole by one `npm run bench` on that Node (`npm run bench -- --node <major>` fetches it as the test matrix does): the ratios of a section are measured in the same run, never across sections. The system\'s Node runs the plain `npm run bench`.',
  '',
].join('\n');

/** Marks the start of a run's section; the end marker is `<!-- /bench:node-<major> -->`. */
const SECTION_START = /^<!-- bench:node-(\d+) -->$/m;

/** One run's section: its major, and its text from its start marker to its end marker included. */
interface Section {
  major: number;
  text: string;
}

/** The major of a Node version such as `v24.21.0` or `24.21.0`. */
function majorOf(version: string): number {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isSafeInteger(major)) throw new Error(`cannot read the Node major of ${JSON.stringify(version)}`);
  return major;
}

/**
 * A run's report as a section of the file: its title names the Node version, and its headings go
 * one level down under it.
 */
function sectionOf(report: string, version: string): Section {
  const major = majorOf(version);
  const body = report
    .replace(/^# Benchmark results\n+/, '')
    .replace(/^(#+) /gm, '#$1 ')
    .trimEnd();
  return { major, text: `<!-- bench:node-${major} -->\n## Node ${version.replace(/^v/, '')}\n\n${body}\n<!-- /bench:node-${major} -->` };
}

/** The sections of a results file; a file of one run from before sections is read as that run's section. */
function sectionsOf(file: string): Section[] {
  if (file.trim() === '') return [];
  if (!SECTION_START.test(file)) {
    const version = /Node (v\d+\.\d+\.\d+)/.exec(file)?.[1];
    if (version === undefined) throw new Error('the results file has neither sections nor the Node version of its run');
    return [sectionOf(file, version)];
  }
  const sections: Section[] = [];
  const pattern = /^<!-- bench:node-(\d+) -->$[\s\S]*?^<!-- \/bench:node-\1 -->$/gm;
  for (const match of file.matchAll(pattern)) sections.push({ major: Number(match[1]), text: match[0] });
  return sections;
}

/**
 * The results file with this run in it: `report` (one run's report, as benchReport writes it) on
 * Node `version` replaces that major's section of `file`, or joins the others, newest major first.
 */
export function withRun(file: string, report: string, version: string): string {
  const section = sectionOf(report, version);
  return fileOf([...sectionsOf(file).filter((existing) => existing.major !== section.major), section]);
}

/** A results file in sections, as withRun writes it, from one in sections or a single run from before them. */
export function inSections(file: string): string {
  return fileOf(sectionsOf(file));
}

function fileOf(sections: readonly Section[]): string {
  const ordered = [...sections].sort((left, right) => right.major - left.major);
  return `${FILE_HEAD}\n${ordered.map((existing) => existing.text).join('\n\n')}\n`;
}
