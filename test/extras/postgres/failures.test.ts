import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PetstoreError } from '../../../lib/index.js';
import { databaseFailure, readinessFailure } from '../../../extras/postgres/failures.js';

function errorWithCode(code: string | undefined, message = 'driver message'): Error {
  const error = new Error(message);
  if (code !== undefined) Object.assign(error, { code });
  return error;
}

test('databaseFailure() turns unreachable or unserviceable databases into `unavailable` with advice', () => {
  const cases: [string | undefined, RegExp][] = [
    ['ECONNREFUSED', /ECONNREFUSED: nothing accepts connections.*start PostgreSQL or correct the connection URL/],
    ['ENOENT', /no PostgreSQL socket/],
    ['ENOTFOUND', /host name does not resolve/],
    ['EAI_AGAIN', /could not be resolved just now/],
    ['ETIMEDOUT', /connecting timed out/],
    ['EHOSTUNREACH', /host is unreachable/],
    ['ENETUNREACH', /network is unreachable/],
    ['ECONNRESET', /connection was reset/],
    ['EPIPE', /closed while sending/],
    ['ESOMETHINGNEW', /ESOMETHINGNEW: the database connection failed/],
    [undefined, /the database connection failed or was closed/],
    ['57P01', /57P01: the database server is shutting down/],
    ['57P02', /crashed and is restarting/],
    ['57P03', /starting up or shutting down/],
    ['3D000', /does not exist\); create it \(createdb\)/],
    ['25006', /only accepts reads/],
    ['53300', /no free connection slots\); lower the pool size per process \(--pool-size\)/],
    ['55P03', /55P03: another session held a lock the create needed past lock_timeout: the insert lock of the pets table/],
    ['57014', /57014: the statement was cancelled \(statement_timeout/],
    ['53100', /53100: the database server ran out of resources/],
    ['08006', /08006: the connection to the database failed/],
    ['28P01', /refused the credentials\); check the user and password/],
  ];
  for (const [code, pattern] of cases) {
    const cause = errorWithCode(code, 'password authentication failed for user "secret-user" at 10.1.2.3');
    const failure = databaseFailure(cause, 'list pets');
    assert.ok(failure instanceof PetstoreError, `code ${code} gives a PetstoreError`);
    assert.equal(failure.code, 'unavailable');
    assert.equal(failure.status, 503);
    assert.match(failure.message, /^Cannot list pets: PostgreSQL is unavailable \(/);
    assert.match(failure.message, pattern);
    assert.doesNotMatch(failure.message, /secret-user|10\.1\.2\.3/, 'the driver message, which can name users and hosts, stays out');
    assert.equal(failure.cause, cause);
  }
});

test('databaseFailure() warns that a pet may be stored only when the connection broke mid-insert', () => {
  for (const code of ['ECONNRESET', '57P01', undefined]) {
    const failure = databaseFailure(errorWithCode(code), 'store the pet');
    assert.ok(failure instanceof PetstoreError && failure.message.includes('The pet may have been stored'), `code ${code}`);
  }
  for (const [code, action] of [['ECONNREFUSED', 'store the pet'], ['ECONNRESET', 'read the pet']] as const) {
    const failure = databaseFailure(errorWithCode(code), action);
    assert.ok(failure instanceof PetstoreError && !failure.message.includes('may have been stored'), `code ${code} while trying to ${action}`);
  }
});

test('databaseFailure() tells a create with an idempotency key cut off mid-insert to repeat it with the same key', () => {
  const failure = databaseFailure(errorWithCode('ECONNRESET'), 'store the pet with its idempotency key');
  assert.ok(failure instanceof PetstoreError);
  assert.match(failure.message, /^Cannot store the pet with its idempotency key: .*The pet may have been stored before the connection broke; repeat the create with the same idempotency key to receive it\.$/);
});

test('databaseFailure() turns other SQLSTATEs into `internal_error` that keeps the database message for the log', () => {
  const cause = errorWithCode('42P01', 'relation "pets" does not exist');
  const failure = databaseFailure(cause, 'read the pet');
  assert.ok(failure instanceof PetstoreError);
  assert.equal(failure.code, 'internal_error');
  assert.equal(failure.message, 'Cannot read the pet: PostgreSQL failed with SQLSTATE 42P01: relation "pets" does not exist');
  assert.equal(failure.cause, cause);
});

test('databaseFailure() passes PetstoreErrors, programming errors and non-errors through unchanged', () => {
  const passed: unknown[] = [
    new PetstoreError('not_found', 'x'),
    new TypeError('x is not a function'),
    new RangeError('bad'),
    Object.assign(new Error('odd'), { code: 'not-a-code' }),
    'a string',
    undefined,
  ];
  for (const value of passed) assert.equal(databaseFailure(value, 'list pets'), value);
});

test('readinessFailure() keeps an outage\'s reason and turns every other failure into `unavailable` naming the table', () => {
  const refused = errorWithCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
  const outage = readinessFailure(refused, 'pets');
  assert.equal(outage.code, 'unavailable');
  assert.match(outage.message, /^Cannot reach the pets table: PostgreSQL is unavailable \(ECONNREFUSED: nothing accepts connections/);
  const cases: [unknown, string][] = [
    [errorWithCode('42P01', 'relation "shop.pets" does not exist'), '42P01: relation "shop.pets" does not exist'],
    [new TypeError('query is not a function'), 'query is not a function'],
    [new PetstoreError('internal_error', 'a defect'), 'internal_error: a defect'],
    ['a string', 'a string'],
  ];
  for (const [cause, shown] of cases) {
    const failure = readinessFailure(cause, 'shop.pets');
    assert.equal(failure.code, 'unavailable');
    assert.equal(failure.status, 503);
    assert.ok(failure.message.startsWith(`Cannot reach the pets table: reading table shop.pets failed (${shown}); it may have been dropped or altered`), failure.message);
    assert.equal(failure.cause, cause);
  }
});
