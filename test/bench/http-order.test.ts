import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alternatingOrder } from '../../bench/http.js';
import type { ServerName } from '../../bench/http.js';

describe('alternatingOrder()', () => {
  test('alternatingOrder() rotates the servers round by round, the project first of the two builds in even rounds and the against build in odd ones', () => {
    const servers: ServerName[] = ['project', 'against', 'fastify', 'lean-fastify', 'baseline', 'ceiling-plain', 'ceiling-same-headers'];
    for (let round = 0; round < 14; round++) {
      const order = alternatingOrder(servers, round);
      assert.deepEqual([...order].sort(), [...servers].sort(), `round ${round} runs every server once`);
      assert.equal(order.indexOf('project') < order.indexOf('against'), round % 2 === 0, `round ${round}`);
      assert.equal(order[0], round % servers.length <= 1 ? (round % 2 === 0 ? 'project' : 'against') : servers[round % servers.length], `round ${round} starts where the rotation does`);
    }
  });

  test('alternatingOrder() is the plain rotation without an against build', () => {
    const servers: ServerName[] = ['project', 'fastify', 'baseline'];
    assert.deepEqual(alternatingOrder(servers, 1), ['fastify', 'baseline', 'project']);
    assert.deepEqual(alternatingOrder(servers, 3), servers);
  });
});
