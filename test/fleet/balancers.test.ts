import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestPostgres } from '../support/postgres.js';
import type { ServerProcess } from '../support/process.js';
import { balancerSkip, startBalancer } from './support/balancers.js';
import type { BalancerName } from './support/balancers.js';
import { compiledMain, DOC_PORTS, docBlock, freePorts, listedIds, rollingRestart, serverArguments, startFleetServer, waitUntilReady, withPorts } from './support/fleet.js';

/** Each balancer's section of docs/operations.md, its configuration's fence, and how long it takes to send to a server that is ready again. */
const BALANCERS: readonly { name: BalancerName; heading: string; language: string; settleMs: number }[] = [
  // nginx learns nothing from /readyz: a ready server is sent to at once.
  { name: 'nginx', heading: '### Rolling restarts behind nginx', language: 'nginx', settleMs: 0 },
  // HAProxy sends to a server again after `rise 2` checks `inter 1s` apart; with a margin.
  { name: 'haproxy', heading: '### Rolling restarts behind HAProxy', language: 'haproxy', settleMs: 3_000 },
];

const postgres = await startTestPostgres();
const hasAnyBalancer = BALANCERS.some((balancer) => balancerSkip(balancer.name) === false);
const main = postgres.skip === false && hasAnyBalancer ? await compiledMain() : '';

for (const balancer of BALANCERS) {
  const skip = postgres.skip || balancerSkip(balancer.name);
  describe(`a rolling restart behind ${balancer.name}, configured as docs/operations.md says`, { skip }, () => {
    const servers: ServerProcess[] = [];

    after(async () => {
      for (const server of servers) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
    });

    test(`${balancer.name} in front of 3 servers on PostgreSQL answers every create and list with a 2xx while each server is restarted in turn`, async (context) => {
      const url = postgres.cluster?.url ?? '';
      const [balancerPort = 0, ...serverPorts] = await freePorts(4);
      const configuration = withPorts(await docBlock('operations.md', balancer.heading, balancer.language), balancerPort, serverPorts);
      const commands = withPorts(await docBlock('operations.md', balancer.heading, 'sh'), balancerPort, serverPorts);
      const commandOf = (index: number): string[] => serverArguments(commands, serverPorts[index] ?? 0);
      assert.ok(!DOC_PORTS.servers.some((port) => commands.includes(`--port ${port}`)), 'every port of the docs was replaced');
      const start = async (index: number): Promise<ServerProcess> => {
        const server = await startFleetServer(url, commandOf(index), main);
        servers.push(server);
        return server;
      };
      const fleet = await Promise.all([0, 1, 2].map(start));
      await Promise.all(fleet.map((server) => waitUntilReady(server.origin)));
      const running = await startBalancer(balancer.name, configuration, balancerPort);
      await waitUntilReady(running.origin);
      await sleep(balancer.settleMs);

      const restart = await rollingRestart({ origin: running.origin, servers: fleet, start, settle: () => sleep(balancer.settleMs) });
      const { tally } = restart;
      const message = `${balancer.name} log:\n${(await running.log()).slice(-3_000)}`;
      assert.deepEqual(restart.exits, [0, 0, 0], 'every old server shut down cleanly on SIGTERM');
      assert.deepEqual(tally.failures.slice(0, 5), [], `${tally.failures.length} requests without an answer (the first 5 shown); ${message}`);
      assert.deepEqual(tally.refusals.slice(0, 5), [], `${tally.refusals.length} answers that were not 2xx (the first 5 shown); ${message}`);
      assert.deepEqual([...tally.statuses.keys()].sort(), [200, 201]);
      assert.ok(restart.answeredDuring.every((count) => count > 0), `answers came while each server restarted: ${restart.answeredDuring.join(', ')}`);
      const listed = await listedIds(running.origin);
      assert.deepEqual(tally.created.filter((id) => !listed.has(id)), [], 'every acknowledged create is stored');
      assert.equal(new Set(tally.created).size, tally.created.length, 'every create got its own id');
      context.diagnostic(`${balancer.name}: ${tally.statuses.get(201) ?? 0} creates and ${tally.statuses.get(200) ?? 0} lists, answered during each restart: ${restart.answeredDuring.join(', ')}, restarts took ${restart.restartMs.join(', ')} ms`);
    });
  });
}
