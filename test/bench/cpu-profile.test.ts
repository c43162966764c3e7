import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpuBreakdown, parseCpuProfile } from '../../bench/cpu-profile.js';
import type { CpuProfile } from '../../bench/cpu-profile.js';

/** Six samples of 100 µs from t = 1,000 µs: start-up code, then the measured window, then shutdown. */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: 'answer', url: 'file:///repo/dist/http/core.js' } },
    { id: 2, callFrame: { functionName: 'writeHead', url: 'node:_http_server' } },
    { id: 3, callFrame: { functionName: 'writev', url: '' } },
    { id: 4, callFrame: { functionName: '(garbage collector)', url: '' } },
    { id: 5, callFrame: { functionName: '(idle)', url: '' } },
    { id: 6, callFrame: { functionName: 'route', url: 'file:///repo/node_modules/fastify/lib/route.js' } },
  ],
  startTime: 1_000,
  samples: [1, 1, 2, 3, 4, 5, 6, 1],
  timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100],
};

test('cpuBreakdown() divides the time of the samples inside the window by the requests, by category', () => {
  // Samples stamped 1,100 … 1,800 µs; the window 1,250–1,750 keeps the third to the seventh.
  const time = cpuBreakdown(PROFILE, { from: 1_250, to: 1_750 }, 10);
  assert.deepEqual(time, { 'own code': 10, node: 10, native: 10, gc: 10, v8: 0, idle: 10, busy: 40 });
});

test('cpuBreakdown() counts a framework in node_modules as the server\'s own code', () => {
  assert.equal(cpuBreakdown(PROFILE, { from: 1_700, to: 1_700 }, 1)['own code'], 100);
});

test('parseCpuProfile() reads a profile and refuses other JSON', () => {
  assert.deepEqual(parseCpuProfile(JSON.stringify(PROFILE)), PROFILE);
  assert.throws(() => parseCpuProfile('{"nodes":[]}'), /not a V8 CPU profile/);
});
