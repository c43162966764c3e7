import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { alternatingOrder } from '../../bench/http.js';
import type { ServerName } from '../../bench/http.js';

describe('alternatingOrder()', () => {
  test('alternatingOrder() rotates the servers round by round, the against build right beside the project: after it in even rounds, before it in odd ones', () => {
    const servers: ServerName[] = ['project', 'against', 'fastify', 'lean-fastify', 'baseline', 'ceiling-plain', 'ceiling-same-headers'];
    const others = servers.filter((server) => server !== 'against');
    for (let round = 0; round < 14; round++) {
      const order = alternatingOrder(servers, round);
      assert.deepEqual([...order].sort(), [...servers].sort(), `round ${round} runs every server once`);
      const [project, against] = [order.indexOf('project'), order.indexOf('against')];
      assert.equal(against - project, round % 2 === 0 ? 1 : -1, `round ${round}: the two builds back to back`);
      assert.deepEqual(order.filter((server) => server !== 'against'), others.map((_, index) => others[(index + round) % others.length]), `round ${round} rotates the others`);
    }
  });

  test('alternatingOrder() is the plain rotation without an against build', () => {
    const servers: ServerName[] = ['project', 'fastify', 'baseline'];
    assert.deepEqual(alternatingOrder(servers, 1), ['fastify', 'baseline', 'project']);
    assert.deepEqual(alternatingOrder(servers, 3), servers);
  });
});
