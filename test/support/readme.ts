/**
 * How the tests read the samples of README.md and docs/: fenced code blocks, and the curl sessions of
 * the shell blocks, each command with the output its comments show. test/readme.test.ts replays them
 * with curl, and test/support/runtimes.ts sends the same requests to Deno and Bun, so both read the
 * README the same way.
 */

/** The fenced code blocks of a Markdown text in one language. */
export function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter((match) => match[1] === language).map((match) => match[2] ?? '');
}

/** The lines a TypeScript sample says it prints, from its `// prints …` comments, in order. */
export function printedLines(block: string): string[] {
  return [...block.matchAll(/\/\/ prints (.+)$/gm)].map((match) => match[1] ?? '');
}

/** The lines of a shell block, with `\` continuations joined and surrounding white space trimmed. */
export function shellLines(block: string): string[] {
  return block.replace(/\\\n\s*/g, ' ').split('\n').map((line) => line.trim());
}

/** A curl command of a shell block and the lines of output its comments show, without their `# `. */
export interface CurlSample {
  command: string;
  shown: string[];
}

/** The variable assignments of a shell block and its curl commands, in order. */
export interface CurlSession {
  assignments: string[];
  samples: CurlSample[];
}

/**
 * A shell block's curl session: `NAME=` lines are assignments, and each `curl ` line is followed by
 * the output it prints, one `# ` comment line per output line (`#` alone for an empty line), up to
 * the first line that is not such a comment. A comment after a blank line explains the next command.
 */
export function curlSession(block: string): CurlSession {
  const session: CurlSession = { assignments: [], samples: [] };
  let current: CurlSample | undefined;
  for (const line of shellLines(block)) {
    if (line.startsWith('curl ')) {
      current = { command: line, shown: [] };
      session.samples.push(current);
    } else if (current !== undefined && (line === '#' || line.startsWith('# '))) {
      current.shown.push(line.slice(2));
    } else {
      current = undefined;
      if (/^[A-Z_]+=/.test(line)) session.assignments.push(line);
    }
  }
  return session;
}

/** The curl sessions of a Markdown text's shell blocks, leaving out blocks without a curl command. */
export function curlSessions(markdown: string): CurlSession[] {
  return codeBlocks(markdown, 'sh').map(curlSession).filter((session) => session.samples.length > 0);
}

/** The status a sample shows on its first line, `HTTP/1.1 201 Created`, or undefined when it shows none. */
export function shownStatus(sample: CurlSample): number | undefined {
  const match = /^HTTP\/[0-9.]+ ([1-5][0-9]{2})(?: |$)/.exec(sample.shown[0] ?? '');
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** The key the README's quick start starts its server with: `PETSTORE_API_KEYS=<key> npm start`. */
export function readmeApiKey(markdown: string): string {
  const key = /PETSTORE_API_KEYS=(\S+) npm start/.exec(markdown)?.[1];
  if (key === undefined) throw new Error('README.md no longer shows `PETSTORE_API_KEYS=<key> npm start`');
  return key;
}
