/** Where a JSON text stops being JSON, and why, in the project's words [RFC 8259]. */
export interface JsonSyntaxProblem {
  /** What is wrong, e.g. ``unexpected `}` where a value was expected``. */
  reason: string;
  /** 1-based line of the problem. */
  line: number;
  /** 1-based column of the problem, counted in code points. */
  column: number;
}

/** What the scanner expects next, outside strings and numbers. */
type Expectation = 'value' | 'key' | 'colon' | 'after-value';

/** The literal names of JSON [RFC 8259 §3]. */
const LITERALS = ['true', 'false', 'null'] as const;

/** RFC 8259 §2: the four white-space characters JSON allows between tokens. */
function isWhiteSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** A character as a message quotes it: letters, digits, punctuation and symbols in backticks, others (spaces, controls, the backtick) by code point. */
function quoted(text: string, at: number): string {
  const codePoint = text.codePointAt(at) ?? 0;
  const character = String.fromCodePoint(codePoint);
  if (character !== '`' && /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character)) return `\`${character}\``;
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The line and column of an offset of the text, columns counted in code points. */
function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let column = 1;
  for (let index = 0; index < offset && index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x0a) {
      line++;
      column = 1;
    } else if (code < 0xdc00 || code > 0xdfff || index === 0 || text.charCodeAt(index - 1) < 0xd800 || text.charCodeAt(index - 1) > 0xdbff) {
      // The second half of a surrogate pair belongs to the column of the first.
      column++;
    }
  }
  return { line, column };
}

/** The end of a string token starting at `start` (its opening quote), or the problem inside it. */
function scanString(text: string, start: number): number | { reason: string; at: number } {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) return index + 1;
    if (code < 0x20) return { reason: `a control character (${quoted(text, index)}) inside a string; escape it`, at: index };
    if (code === 0x5c) {
      const escaped = text[index + 1];
      if (escaped === undefined) break;
      if (escaped === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
          if (index + 6 > text.length && /^[0-9a-fA-F]*$/.test(text.slice(index + 2))) break;
          return { reason: 'a `\\u` escape without four hexadecimal digits', at: index };
        }
        index += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(escaped)) return { reason: `an unknown escape \`\\${escaped}\` inside a string`, at: index };
      index += 2;
      continue;
    }
    index++;
  }
  return { reason: 'the body ends inside a string', at: text.length };
}

/** The end of a number token starting at `start` [RFC 8259 §6], or the problem inside it. */
function scanNumber(text: string, start: number): number | { reason: string; at: number } {
  let index = start;
  if (text.charCodeAt(index) === 0x2d) index++;
  /** The problem at `index`: the text ended, or a character broke the number. */
  const broken = (what: string): { reason: string; at: number } => (index >= text.length
    ? { reason: `the body ends inside a number, where ${what} was expected`, at: index }
    : { reason: `unexpected ${quoted(text, index)} inside a number, where ${what} was expected`, at: index });
  if (text.charCodeAt(index) === 0x30) {
    index++;
    if (isDigit(text.charCodeAt(index))) return { reason: 'a number with a leading zero', at: start };
  } else if (isDigit(text.charCodeAt(index))) {
    while (isDigit(text.charCodeAt(index))) index++;
  } else {
    return broken('a digit');
  }
  if (text.charCodeAt(index) === 0x2e) {
    index++;
    if (!isDigit(text.charCodeAt(index))) return broken('a digit after `.`');
    while (isDigit(text.charCodeAt(index))) index++;
  }
  if (text.charCodeAt(index) === 0x65 || text.charCodeAt(index) === 0x45) {
    index++;
    if (text.charCodeAt(index) === 0x2b || text.charCodeAt(index) === 0x2d) index++;
    if (!isDigit(text.charCodeAt(index))) return broken('a digit of the exponent');
    while (isDigit(text.charCodeAt(index))) index++;
  }
  return index;
}

/** The scanner's state: the text, the open containers (`[` or `{`), what comes next, and where. */
interface Scan {
  readonly text: string;
  readonly open: string[];
  expecting: Expectation;
  index: number;
}

/** A problem found by a step, with its offset; a step that found none returns undefined and the scan goes on. */
type Found = { reason: string; at: number } | undefined;

/** A token that ends at `end`, or the problem inside it; the value it completes is followed by what follows values. */
function tokenEnd(scan: Scan, end: number | { reason: string; at: number }, next: Expectation): Found {
  if (typeof end !== 'number') return end;
  scan.expecting = next;
  scan.index = end;
  return undefined;
}

/** After a value inside an array or object: `,` or the container's closer. */
function afterValue(scan: Scan, character: string, container: string): Found {
  const closer = container === '[' ? ']' : '}';
  if (character === ',') {
    scan.expecting = container === '[' ? 'value' : 'key';
  } else if (character === closer) {
    scan.open.pop();
  } else {
    return { reason: `unexpected ${quoted(scan.text, scan.index)} where \`,\` or \`${closer}\` was expected`, at: scan.index };
  }
  scan.index++;
  return undefined;
}

/** An array or object opens; an empty one closes at once (a closer after a `,` is refused later). */
function openContainer(scan: Scan, character: string): Found {
  scan.open.push(character);
  scan.expecting = character === '[' ? 'value' : 'key';
  scan.index++;
  const next = skipWhiteSpace(scan.text, scan.index);
  if (scan.text[next] === (character === '[' ? ']' : '}')) {
    scan.open.pop();
    scan.expecting = 'after-value';
    scan.index = next + 1;
  }
  return undefined;
}

/** `true`, `false` or `null`, or where the word departs from the one its first letter begins. */
function literal(scan: Scan, word: string): Found {
  const { text, index } = scan;
  let matched = 0;
  while (matched < word.length && text[index + matched] === word[matched]) matched++;
  if (matched === word.length) return tokenEnd(scan, index + word.length, 'after-value');
  if (index + matched >= text.length) return { reason: 'the body ends before the JSON value is complete', at: text.length };
  return { reason: `unexpected ${quoted(text, index + matched)} where \`${word}\` was expected`, at: index + matched };
}

/** Where a value is expected: an array, an object, a string, a number or a literal. */
function value(scan: Scan, character: string): Found {
  const { text, index } = scan;
  if (character === '[' || character === '{') return openContainer(scan, character);
  if (character === '"') return tokenEnd(scan, scanString(text, index), 'after-value');
  if (character === '-' || isDigit(text.charCodeAt(index))) return tokenEnd(scan, scanNumber(text, index), 'after-value');
  const word = LITERALS.find((candidate) => candidate.startsWith(character));
  if (word !== undefined) return literal(scan, word);
  return { reason: `unexpected ${quoted(text, index)} where a value was expected`, at: index };
}

/** One token of the scan, as what comes next decides. */
function step(scan: Scan, character: string): Found {
  const { text, index } = scan;
  switch (scan.expecting) {
    case 'after-value': {
      const container = scan.open.at(-1);
      if (container === undefined) return { reason: `unexpected ${quoted(text, index)} after the JSON value; send one value only`, at: index };
      return afterValue(scan, character, container);
    }
    case 'colon':
      if (character !== ':') return { reason: `unexpected ${quoted(text, index)} where \`:\` was expected`, at: index };
      scan.expecting = 'value';
      scan.index++;
      return undefined;
    case 'key':
      if (character !== '"') return { reason: `unexpected ${quoted(text, index)} where a property name in double quotes was expected`, at: index };
      return tokenEnd(scan, scanString(text, index), 'colon');
    default:
      return value(scan, character);
  }
}

/**
 * The first place a text departs from the JSON grammar, with the reason, or undefined when it is
 * JSON. It reads the text once, left to right, with an explicit stack of the open arrays and objects
 * (no recursion, so any depth is safe), so its words and positions are the same on every runtime,
 * where `JSON.parse`'s messages are the engine's own (V8's, JavaScriptCore's).
 */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const scan: Scan = { text, open: [], expecting: 'value', index: 0 };
  for (;;) {
    scan.index = skipWhiteSpace(text, scan.index);
    if (scan.index >= text.length) {
      if (scan.expecting === 'after-value' && scan.open.length === 0) return undefined;
      return { reason: 'the body ends before the JSON value is complete', ...positionOf(text, scan.index) };
    }
    const found = step(scan, text[scan.index] ?? '');
    if (found !== undefined) return { reason: found.reason, ...positionOf(text, found.at) };
  }
}

/** The first offset from `index` that is not JSON white space. */
function skipWhiteSpace(text: string, index: number): number {
  let next = index;
  while (next < text.length && isWhiteSpace(text.charCodeAt(next))) next++;
  return next;
}
