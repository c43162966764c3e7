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

/** One run's section, from its start marker `<!-- bench:node-<major> -->` to its end marker `<!-- /bench:node-<major> -->`. */
const SECTION = /^<!-- bench:node-(\d+) -->$[\s\S]*?^<!-- \/bench:node-\1 -->$/gm;

/**
 * The results file with this run in it: `report` (one run's report, as benchReport writes it) on
 * Node `version` becomes that major's section of `file`, its title naming the version and its
 * headings one level down, and replaces the earlier run of that major; newest major first.
 */
export function withRun(file: string, report: string, version: string): string {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isSafeInteger(major)) throw new Error(`cannot read the Node major of ${JSON.stringify(version)}`);
  const body = report.replace(/^# Benchmark results\n+/, '').replace(/^(#+) /gm, '#$1 ').trimEnd();
  const section = { major, text: `<!-- bench:node-${major} -->\n## Node ${version.replace(/^v/, '')}\n\n${body}\n<!-- /bench:node-${major} -->` };
  const sections = [...file.matchAll(SECTION)].map((match) => ({ major: Number(match[1]), text: match[0] })).filter((existing) => existing.major !== major);
  const ordered = [...sections, section].sort((left, right) => right.major - left.major);
  return `${FILE_HEAD}\n${ordered.map((existing) => existing.text).join('\n\n')}\n`;
}
