import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, test } from 'node:test';
import { createOutput, MAX_PENDING_OUTPUT } from '../../../extras/cli/output.js';
import type { OutputStream } from '../../../extras/cli/output.js';

/** A stream whose reader takes nothing until `drain()`, and which fails on `fail()`, as a pipe does. */
class FakeStream extends EventEmitter implements OutputStream {
  written: string[] = [];
  taken: string[] = [];
  isThrowing = false;

  get writableLength(): number {
    return this.written.reduce((sum, text) => sum + text.length, 0);
  }

  write(chunk: string): boolean {
    if (this.isThrowing) throw new Error('write after end');
    this.written.push(chunk);
    return true;
  }

  drain(): void {
    this.taken.push(...this.written);
    this.written = [];
  }

  fail(): void {
    this.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  }
}

describe('createOutput()', () => {
  test('createOutput() passes lines through while the reader keeps up', () => {
    const stream = new FakeStream();
    const output = createOutput(stream, { maxPending: 100 });
    for (const line of ['{"msg":"a"}\n', 'plain line\n']) {
      output.write(line);
      stream.drain();
    }
    assert.deepEqual(stream.taken, ['{"msg":"a"}\n', 'plain line\n']);
  });

  test('createOutput() drops what a stalled reader cannot take past the bound, counts each drop, and names their number in the next JSON line that gets through', () => {
    const stream = new FakeStream();
    const output = createOutput(stream, { maxPending: 50 });
    let counted = 0;
    output.onDrop(() => void counted++);
    const line = '{"msg":"event","n":1}\n';
    for (let index = 0; index < 10; index++) output.write(line);
    assert.equal(stream.written.length, 2, 'only what fits in the bound is held');
    assert.equal(counted, 8);
    stream.drain();
    output.write('not JSON, so it cannot carry the count\n');
    stream.drain();
    output.write('{"msg":"after"}\n');
    output.write('{"msg":"later"}\n');
    assert.deepEqual(stream.written, ['{"msg":"after","dropped":8}\n', '{"msg":"later"}\n']);
    assert.deepEqual(JSON.parse(stream.written[0] ?? ''), { msg: 'after', dropped: 8 });
  });

  test('createOutput() gives an empty JSON object the count too', () => {
    const stream = new FakeStream();
    const output = createOutput(stream, { maxPending: 10 });
    output.write('{"a":1}\n');
    stream.drain();
    output.write('{"msg":"too long for the bound"}\n');
    output.write('{}\n');
    assert.deepEqual(stream.written, ['{"dropped":1}\n']);
  });

  test('createOutput() survives a reader that went away (EPIPE): nothing throws, and every later line is dropped and counted', () => {
    const stream = new FakeStream();
    const output = createOutput(stream);
    let counted = 0;
    output.onDrop(() => void counted++);
    output.write('{"msg":"before"}\n');
    stream.fail();
    for (let index = 0; index < 3; index++) output.write('{"msg":"after"}\n');
    assert.deepEqual(stream.written, ['{"msg":"before"}\n']);
    assert.equal(counted, 3);
    assert.equal(stream.listenerCount('error'), 1, 'the error has a listener, so it never crashes the process');
  });

  test('createOutput() survives a stream that throws on write, and drops from then on', () => {
    const stream = new FakeStream();
    const output = createOutput(stream);
    let counted = 0;
    output.onDrop(() => void counted++);
    stream.isThrowing = true;
    assert.doesNotThrow(() => output.write('{"msg":"lost"}\n'));
    stream.isThrowing = false;
    output.write('{"msg":"also lost"}\n');
    assert.deepEqual([stream.written, counted], [[], 2]);
  });

  test('createOutput() holds at most MAX_PENDING_OUTPUT unread by default: 1 MiB', () => {
    const stream = new FakeStream();
    const output = createOutput(stream);
    const line = `${'x'.repeat(1023)}\n`;
    for (let index = 0; index < 2048; index++) output.write(line);
    assert.equal(MAX_PENDING_OUTPUT, 1024 * 1024);
    assert.equal(stream.writableLength, MAX_PENDING_OUTPUT);
  });
});
