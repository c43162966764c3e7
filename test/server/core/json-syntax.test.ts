import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { decodeJsonBody } from '../../../server/core/request.js';
import { findJsonSyntaxProblem } from '../../../server/core/json-syntax.js';

/** Texts that are not JSON, with the reason and position the scanner gives. */
const PROBLEMS: readonly [string, string, number, number][] = [
  ['{"name":', 'the body ends before the JSON value is complete', 1, 9],
  ['', 'the body ends before the JSON value is complete', 1, 1],
  ['[[[[', 'the body ends before the JSON value is complete', 1, 5],
  ['tru', 'the body ends before the JSON value is complete', 1, 4],
  ['trux', 'unexpected `x` where `true` was expected', 1, 4],
  ["{'name':'x'}", 'unexpected `\'` where a property name in double quotes was expected', 1, 2],
  ['{"name":"x","categoryId":1}trailing', 'unexpected `t` after the JSON value; send one value only', 1, 28],
  ['1 2', 'unexpected `2` after the JSON value; send one value only', 1, 3],
  ['[1,]', 'unexpected `]` where a value was expected', 1, 4],
  ['{"a":1,}', 'unexpected `}` where a property name in double quotes was expected', 1, 8],
  ['{"a" 1}', 'unexpected `1` where `:` was expected', 1, 6],
  ['{"a":1 "b":2}', 'unexpected `"` where `,` or `}` was expected', 1, 8],
  ['[1 2]', 'unexpected `2` where `,` or `]` was expected', 1, 4],
  ['Rex', 'unexpected `R` where a value was expected', 1, 1],
  ['\u00a0{}', 'unexpected U+00A0 where a value was expected', 1, 1],
  ['`', 'unexpected U+0060 where a value was expected', 1, 1],
  ['{"name":"Äffchen 🐒",x}', 'unexpected `x` where a property name in double quotes was expected', 1, 21],
  ['{\n  "a": ,\n}', 'unexpected `,` where a value was expected', 2, 8],
  ['01', 'a number with a leading zero', 1, 1],
  ['-', 'the body ends inside a number, where a digit was expected', 1, 2],
  ['-x', 'unexpected `x` inside a number, where a digit was expected', 1, 2],
  ['1.', 'the body ends inside a number, where a digit after `.` was expected', 1, 3],
  ['1e+', 'the body ends inside a number, where a digit of the exponent was expected', 1, 4],
  ['"abc', 'the body ends inside a string', 1, 5],
  ['"a\\', 'the body ends inside a string', 1, 4],
  ['"a\\u12', 'the body ends inside a string', 1, 7],
  ['"a\\q"', 'an unknown escape `\\q` inside a string', 1, 3],
  ['"a\\u12"', 'a `\\u` escape without four hexadecimal digits', 1, 3],
  ['"\t"', 'a control character (U+0009) inside a string; escape it', 1, 2],
];

test('findJsonSyntaxProblem() words each departure from the JSON grammar with its line and column', () => {
  for (const [text, reason, line, column] of PROBLEMS) {
    assert.throws(() => JSON.parse(text), SyntaxError, `JSON.parse accepts ${JSON.stringify(text)}`);
    assert.deepEqual(findJsonSyntaxProblem(text), { reason, line, column }, JSON.stringify(text));
  }
});

test('findJsonSyntaxProblem() finds no problem in JSON texts', () => {
  for (const text of ['{}', '{ }', '[ ]', '[]', ' 0 ', '-0.5e+3', '1E9', '"\\u00e9\\n\\/"', 'true', 'null', '{"a":[1,{"b":null}],"c":false}', '\r\n{"name":"Rex"}\t']) {
    assert.equal(findJsonSyntaxProblem(text), undefined, text);
  }
});

test('findJsonSyntaxProblem() agrees with JSON.parse on every one-character change of a NewPet body', () => {
  const base = '{"name":"R\\u00e9x","categoryId":-1.5e2,"tags":[true,null,{}],"status":"available"}';
  const alphabet = ['', ' ', '"', '\\', ',', ':', '[', ']', '{', '}', '0', '1', '-', '+', '.', 'e', 't', 'n', 'x', '\n'];
  let compared = 0;
  for (let at = 0; at <= base.length; at++) {
    for (const character of alphabet) {
      for (const text of [base.slice(0, at) + character + base.slice(at + 1), base.slice(0, at) + character + base.slice(at)]) {
        let isJson = true;
        try {
          JSON.parse(text);
        } catch {
          isJson = false;
        }
        assert.equal(findJsonSyntaxProblem(text) === undefined, isJson, text);
        compared++;
      }
    }
  }
  assert.ok(compared > 3000, `${compared} texts compared`);
});

test('findJsonSyntaxProblem() reads a deeply nested text without recursion', () => {
  const depth = 200_000;
  assert.deepEqual(findJsonSyntaxProblem('['.repeat(depth)), { reason: 'the body ends before the JSON value is complete', line: 1, column: depth + 1 });
  assert.equal(findJsonSyntaxProblem(`${'['.repeat(depth)}${']'.repeat(depth)}`), undefined);
});

test('decodeJsonBody() words a syntax error in the project\'s words, not the runtime\'s', () => {
  assert.throws(() => decodeJsonBody(new TextEncoder().encode('{"name":'), 'Cannot create pet'), (error: unknown) => {
    assert.ok(error instanceof PetstoreError);
    assert.equal(error.code, 'invalid_json');
    assert.equal(error.message, 'Cannot create pet: the body is not valid JSON (the body ends before the JSON value is complete, at line 1, column 9)');
    return true;
  });
});
