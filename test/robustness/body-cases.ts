import { PET_STATUSES } from '../../lib/index.js';

const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;
import type { Random } from './prng.js';

/** One fuzzed `POST /v1/pets` request: its headers and body, and the mutations that made it. */
export interface CreateCase {
  description: string;
  headers: [string, string][];
  body: Buffer;
  framing: 'length' | 'chunked';
}

const NAME_PIECES = ['Rex', 'Tom', 'a', ' ', 'Ünïcödé', '猫', '🐕', 'e\u0301', 'שלום', '\t', 'x'.repeat(40), '"', '\\', '/', '\u2028', '\ufeff', '\u00a0', '0'];

function randomName(random: Random): string {
  let name = '';
  const pieces = random.between(1, 5);
  for (let index = 0; index < pieces; index++) name += random.pick(NAME_PIECES);
  return name;
}

const CATEGORY_IDS = [0, 1, 7, 42, -1, -42, 123_456_789, MAX_SAFE_ID, -MAX_SAFE_ID];

/** A valid NewPet as a plain object. */
function validPet(random: Random): Record<string, unknown> {
  const pet: Record<string, unknown> = { name: randomName(random), categoryId: random.pick(CATEGORY_IDS) };
  if (random.chance(0.6)) pet['status'] = random.pick(PET_STATUSES);
  return pet;
}

/** Escapes some characters of a JSON string's content as `\uXXXX`, which JSON.parse reads back the same. */
function escapeSome(text: string, random: Random): string {
  let out = '';
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    out += random.chance(0.3) ? `\\u${unit.toString(16).padStart(4, '0')}` : JSON.stringify(text[index]).slice(1, -1);
  }
  return out;
}

/** Serialises an object as JSON with random white space, key order and escapes. */
function serialise(record: Record<string, unknown>, random: Random): string {
  const entries = Object.entries(record);
  if (random.chance(0.3)) entries.reverse();
  const space = (): string => (random.chance(0.2) ? random.pick([' ', '\n', '\t', '\r\n', '  ']) : '');
  const parts = entries.map(([key, value]) => {
    const keyText = random.chance(0.15) ? `"${escapeSome(key, random)}"` : JSON.stringify(key);
    const valueText = typeof value === 'string' && random.chance(0.15) ? `"${escapeSome(value, random)}"` : JSON.stringify(value);
    return `${space()}${keyText}${space()}:${space()}${valueText}${space()}`;
  });
  return `${space()}{${parts.join(',')}}${space()}`;
}

const PUNCTUATION = ['{', '}', '[', ']', ':', ',', '"', '\\', '\\u', '\\ud800', 'null', 'tru', '-', '.', 'e', '0', '/*', '//', "'"];
const HUGE_NUMBERS = ['1e400', '-1e400', '1e-400', '9007199254740993', '9007199254740992', '-9007199254740993', '1.0', '1.5', '-0', '0.0', '1e2', '100e-2', `1${'0'.repeat(400)}`, `0.${'0'.repeat(400)}1`, '0x10', '01', '+1', 'NaN', 'Infinity', '-Infinity', '1_000', '.5', '5.', '1e', '--1', '4.9e-324', '1.7976931348623157e308'];
const PROTO_KEYS = ['"__proto__"', '"constructor"', '"prototype"', '"\\u005f_proto__"', '"__\\u0070roto__"', '"\\u005f\\u005fproto\\u005f\\u005f"', '"hasOwnProperty"', '"toString"', '"valueOf"', '"__defineGetter__"', '"toJSON"', '"then"'];
const PROTO_VALUES = ['{"status":"sold","isAdmin":true}', '{"prototype":{"status":"sold"}}', 'null', '[]', '1', '"x"', '{"__proto__":{"polluted":1}}', '{"name":"Injected","categoryId":1}'];
const LONE_SURROGATES = ['\\ud800', '\\udbff', '\\udc00', '\\udfff', 'a\\ud83d', '\\ude00a', '\\ud83d\\ude00', '\\ud800\\ud800', '\\udc00\\ud800'];
const INVALID_UTF8 = [[0xff], [0xfe], [0xc0, 0xaf], [0xc1, 0xbf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xed, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xbf], [0xc3]];
const BOM = [0xef, 0xbb, 0xbf];
const WRONG_VALUES = ['null', 'true', 'false', '[]', '{}', '""', '" "', '5', '"5"', '[1]', '{"a":1}', '-1', '1.5'];
const TOP_LEVEL = ['[]', 'null', '"string"', '42', 'true', '[{"name":"Rex","categoryId":1}]', '{}', '{"name":"Rex","categoryId":1} {}', '{"name":"Rex","categoryId":1},', '{"name":"Rex","categoryId":1,}', "{'name':'Rex','categoryId':1}", '{name:"Rex",categoryId:1}', ' ', '\n', '\u0000', '{"name":"Rex","categoryId":1}\u0000'];

/** Inserts `insert` into `text` at a random position. */
function insertAt(text: Buffer, insert: Buffer, random: Random): Buffer {
  const at = random.below(text.length + 1);
  return Buffer.concat([text.subarray(0, at), insert, text.subarray(at)]);
}

/** Replaces the first occurrence of `"key":value` (serialised without spaces) or appends the member. */
function withMember(json: string, member: string): string {
  const close = json.lastIndexOf('}');
  if (close === -1) return json;
  const isEmpty = /\{\s*$/.test(json.slice(0, close));
  return `${json.slice(0, close)}${isEmpty ? '' : ','}${member}${json.slice(close)}`;
}

function nested(depth: number, random: Random, isBalanced: boolean): string {
  const isArray = random.chance(0.5);
  const open = isArray ? '[' : '{"a":';
  const close = isArray ? ']' : '}';
  return open.repeat(depth) + '1' + close.repeat(isBalanced ? depth : random.below(depth));
}

/** The mutations a case may apply, by name; each takes the body so far. */
const MUTATIONS: Readonly<Record<string, (body: Buffer, random: Random) => Buffer>> = {
  truncate: (body, random) => body.subarray(0, random.below(body.length)),
  punctuation: (body, random) => {
    let out = body;
    for (let count = random.between(1, 3); count > 0; count--) out = insertAt(out, Buffer.from(random.pick(PUNCTUATION)), random);
    return out;
  },
  deleteByte: (body, random) => {
    const at = random.below(body.length);
    return Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
  },
  deepNesting: (body, random) => {
    // The deepest ones are rare: they cost a megabyte each and one in a few hundred cases is enough.
    const depth = random.chance(0.1) ? random.pick([100_000, 500_000]) : random.pick([10, 100, 1_000, 10_000]);
    const value = nested(depth, random, random.chance(0.7));
    if (random.chance(0.3)) return Buffer.from(value);
    return Buffer.from(withMember(body.toString('utf8'), `"deep":${value}`));
  },
  deepName: (body, random) => Buffer.from(body.toString('utf8').replace(/"name"\s*:\s*"(?:[^"\\]|\\.)*"/, `"name":${nested(random.pick([50, 5_000, 50_000]), random, true)}`)),
  hugeNumber: (body, random) => Buffer.from(body.toString('utf8').replace(/"categoryId"\s*:\s*-?[0-9]+/, `"categoryId":${random.pick(HUGE_NUMBERS)}`)),
  protoKey: (body, random) => {
    const member = `${random.pick(PROTO_KEYS)}:${random.pick(PROTO_VALUES)}`;
    const text = body.toString('utf8');
    // Either first (before the real fields) or last, since JSON.parse keeps the last duplicate.
    return Buffer.from(random.chance(0.5) ? withMember(text, member) : text.replace('{', `{${member},`));
  },
  loneSurrogate: (body, random) => {
    const text = body.toString('utf8');
    const surrogate = random.pick(LONE_SURROGATES);
    if (random.chance(0.7)) return Buffer.from(text.replace(/"name"\s*:\s*"/, `"name":"${surrogate}`));
    return Buffer.from(withMember(text, `"${surrogate}":1`));
  },
  invalidUtf8: (body, random) => {
    const bytes = Buffer.from(random.pick(INVALID_UTF8));
    const text = body.toString('utf8');
    const nameAt = text.indexOf('"name"');
    // Inside the name most of the time, where a lax decoder would turn it into U+FFFD and accept it.
    if (nameAt !== -1 && random.chance(0.7)) {
      const at = Buffer.byteLength(text.slice(0, nameAt)) + Buffer.byteLength('"name":"') + 1;
      if (at < body.length) return Buffer.concat([body.subarray(0, at), bytes, body.subarray(at)]);
    }
    return insertAt(body, bytes, random);
  },
  bom: (body, random) => {
    const choice = random.below(5);
    if (choice === 0) return Buffer.concat([Buffer.from(BOM), body]);
    if (choice === 1) return Buffer.concat([Buffer.from(BOM), Buffer.from(BOM), body]);
    if (choice === 2) return Buffer.concat([Buffer.from(' '), Buffer.from(BOM), body]);
    if (choice === 3) return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body.toString('utf8'), 'utf16le')]);
    return insertAt(body, Buffer.from(BOM), random);
  },
  manyKeys: (body, random) => {
    const count = random.chance(0.1) ? 100_000 : random.pick([100, 1_000, 10_000]);
    const keys = Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(',');
    return Buffer.from(withMember(body.toString('utf8'), keys));
  },
  duplicateKeys: (body, random) => {
    const text = body.toString('utf8');
    const member = random.pick(['"name":"Dup"', '"name":5', '"categoryId":"1"', '"categoryId":2', '"status":"sold"', '"status":"unknown"', '"status":null']);
    return Buffer.from(random.chance(0.5) ? withMember(text, member) : text.replace('{', `{${member},`));
  },
  wrongType: (body, random) => {
    const field = random.pick(['name', 'categoryId', 'status']);
    return Buffer.from(withMember(body.toString('utf8'), `"${field}":${random.pick(WRONG_VALUES)}`));
  },
  topLevel: (_body, random) => Buffer.from(random.pick(TOP_LEVEL)),
  controlCharacter: (body, random) => {
    const text = body.toString('utf8');
    const control = String.fromCharCode(random.below(32));
    return Buffer.from(random.chance(0.5) ? text.replace(/"name"\s*:\s*"/, `"name":"${control}`) : text.replace(/"name"\s*:\s*"/, `"name":"\\u00${random.below(32).toString(16).padStart(2, '0')}`));
  },
  longName: (body, random) => {
    const length = random.pick([255, 256, 257, 1_000, 60_000]);
    const unit = random.pick(['a', '🐕', 'é']);
    return Buffer.from(body.toString('utf8').replace(/"name"\s*:\s*"(?:[^"\\]|\\.)*"/, `"name":"${unit.repeat(length)}"`));
  },
  clientId: (body, random) => Buffer.from(withMember(body.toString('utf8'), `"id":${random.pick(['1', '999999', '-1', '"1"'])}`)),
  empty: (_body, random) => Buffer.from(random.pick(['', ' ', '\r\n', '\t'])),
  randomBytes: (body, random) => {
    const bytes = Buffer.from(body);
    for (let count = random.between(1, 4); count > 0 && bytes.length > 0; count--) bytes[random.below(bytes.length)] = random.below(256);
    return bytes;
  },
};

const MUTATION_NAMES = Object.keys(MUTATIONS);

const CONTENT_TYPES = ['application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'Application/Json;charset=UTF-8', 'application/json ; foo=bar', 'text/plain', 'application/jsonx', 'application/json-patch+json', 'application/x-www-form-urlencoded', 'json', '', 'application/json, text/plain'];

/** Builds one fuzzed create request from a fresh valid pet and 0 to 3 mutations. */
export function createCase(random: Random, apiKey: string): CreateCase {
  let body: Buffer = Buffer.from(serialise(validPet(random), random), 'utf8');
  const applied: string[] = [];
  const count = random.chance(0.12) ? 0 : random.between(1, 3);
  for (let index = 0; index < count; index++) {
    const name = random.pick(MUTATION_NAMES);
    applied.push(name);
    body = (MUTATIONS[name] as (typeof MUTATIONS)[string])(body, random);
  }
  const headers: [string, string][] = [];
  const auth = random.below(40);
  if (auth === 0) headers.push(['Authorization', 'Bearer wrong-key']);
  else if (auth === 1) headers.push(['Authorization', `Basic ${apiKey}`]);
  else if (auth === 2) applied.push('no auth');
  else headers.push(['Authorization', `${random.pick(['Bearer', 'bearer', 'BEARER'])} ${apiKey}`]);
  if (auth < 3) applied.push('bad auth');
  const contentType = random.chance(0.9) ? 'application/json' : random.pick(CONTENT_TYPES);
  if (contentType !== '' || random.chance(0.5)) headers.push(['Content-Type', contentType]);
  if (random.chance(0.05)) headers.push(['Expect', '100-continue']);
  const framing = random.chance(0.25) ? 'chunked' : 'length';
  return { description: `${applied.join('+') || 'valid'} ${framing} ${contentType || 'no content type'}`, headers, body, framing };
}
