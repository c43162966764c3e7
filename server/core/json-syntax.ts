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

/**
 * The first place a text departs from the JSON grammar, with the reason, or undefined when it is
 * JSON. It reads the text once, left to right, with an explicit stack of the open arrays and objects
 * (no recursion, so any depth is safe), so its words and positions are the same on every runtime,
 * where `JSON.parse`'s messages are the engine's own (V8's, JavaScriptCore's).
 */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  /** The open containers: `[` or `{`. */
  const open: string[] = [];
  let expecting: Expectation = 'value';
  let index = 0;
  /** The problem at an offset, positioned. */
  const problem = (reason: string, at: number): JsonSyntaxProblem => ({ reason, ...positionOf(text, at) });
  for (;;) {
    while (index < text.length && isWhiteSpace(text.charCodeAt(index))) index++;
    const container = open.at(-1);
    if (index >= text.length) {
      if (expecting === 'after-value' && container === undefined) return undefined;
      return problem('the body ends before the JSON value is complete', index);
    }
    const character = text[index] ?? '';
    if (expecting === 'after-value') {
      if (container === undefined) return problem(`unexpected ${quoted(text, index)} after the JSON value; send one value only`, index);
      const closer = container === '[' ? ']' : '}';
      if (character === ',') {
        expecting = container === '[' ? 'value' : 'key';
        index++;
        continue;
      }
      if (character === closer) {
        open.pop();
        index++;
        continue;
      }
      return problem(`unexpected ${quoted(text, index)} where \`,\` or \`${closer}\` was expected`, index);
    }
    if (expecting === 'colon') {
      if (character !== ':') return problem(`unexpected ${quoted(text, index)} where \`:\` was expected`, index);
      expecting = 'value';
      index++;
      continue;
    }
    if (expecting === 'key') {
      if (character !== '"') return problem(`unexpected ${quoted(text, index)} where a property name in double quotes was expected`, index);
      const end = scanString(text, index);
      if (typeof end !== 'number') return problem(end.reason, end.at);
      expecting = 'colon';
      index = end;
      continue;
    }
    if (character === '[' || character === '{') {
      open.push(character);
      expecting = character === '[' ? 'value' : 'key';
      index++;
      const next = skipWhiteSpace(text, index);
      // An empty array or object; a closer after a `,` is refused below.
      if (text[next] === (character === '[' ? ']' : '}')) {
        open.pop();
        expecting = 'after-value';
        index = next + 1;
      }
      continue;
    }
    if (character === '"') {
      const end = scanString(text, index);
      if (typeof end !== 'number') return problem(end.reason, end.at);
      expecting = 'after-value';
      index = end;
      continue;
    }
    if (character === '-' || isDigit(text.charCodeAt(index))) {
      const end = scanNumber(text, index);
      if (typeof end !== 'number') return problem(end.reason, end.at);
      expecting = 'after-value';
      index = end;
      continue;
    }
    const literal = LITERALS.find((word) => word.startsWith(character));
    if (literal !== undefined) {
      let matched = 0;
      while (matched < literal.length && text[index + matched] === literal[matched]) matched++;
      if (matched === literal.length) {
        expecting = 'after-value';
        index += literal.length;
        continue;
      }
      if (index + matched >= text.length) return problem('the body ends before the JSON value is complete', text.length);
      return problem(`unexpected ${quoted(text, index + matched)} where \`${literal}\` was expected`, index + matched);
    }
    return problem(`unexpected ${quoted(text, index)} where a value was expected`, index);
  }
}

/** The first offset from `index` that is not JSON white space. */
function skipWhiteSpace(text: string, index: number): number {
  let next = index;
  while (next < text.length && isWhiteSpace(text.charCodeAt(next))) next++;
  return next;
}
