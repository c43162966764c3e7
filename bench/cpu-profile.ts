/** The parts of a V8 `.cpuprofile` that the breakdown reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  /** Microseconds of the monotonic clock, as `process.hrtime` counts them. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a sample's time went. */
export type CpuCategory = 'own code' | 'node' | 'native' | 'gc' | 'v8' | 'idle';

/** Microseconds per request in each category, and their sum without idle. */
export type CpuBreakdown = Record<CpuCategory, number> & { busy: number };

function isCpuProfile(value: unknown): value is CpuProfile {
  if (typeof value !== 'object' || value === null) return false;
  return 'nodes' in value && Array.isArray(value.nodes) && 'samples' in value && Array.isArray(value.samples)
    && 'timeDeltas' in value && Array.isArray(value.timeDeltas) && 'startTime' in value && typeof value.startTime === 'number';
}

/** Reads a `.cpuprofile` file's text, refusing anything else. */
export function parseCpuProfile(text: string): CpuProfile {
  const parsed: unknown = JSON.parse(text);
  if (!isCpuProfile(parsed)) throw new Error('not a V8 CPU profile: expected nodes, samples, timeDeltas and startTime');
  return parsed;
}

/** The category of a profile node: the server's own code (its `dist` or `node_modules` files), Node's modules, or V8's pseudo-frames. */
function categoryOf(frame: CpuProfile['nodes'][number]['callFrame']): CpuCategory {
  const { functionName, url } = frame;
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'gc';
  if (functionName === '(program)') return 'v8';
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/dist/') || url.includes('/dist-bench/') || url.includes('/node_modules/')) return 'own code';
  return 'native';
}

/**
 * Time per request by category over the samples taken between `from` and `to` (microseconds of the
 * monotonic clock, the window in which `requests` were answered): what a profile says about one
 * request once start-up and the prefill are left out.
 */
export function cpuBreakdown(profile: CpuProfile, window: { from: number; to: number }, requests: number): CpuBreakdown {
  const categories = new Map(profile.nodes.map((node) => [node.id, categoryOf(node.callFrame)]));
  const totals: Record<CpuCategory, number> = { 'own code': 0, node: 0, native: 0, gc: 0, v8: 0, idle: 0 };
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (time < window.from || time > window.to) continue;
    totals[categories.get(profile.samples[index] ?? -1) ?? 'native'] += delta;
  }
  const perRequest = (value: number): number => value / requests;
  const breakdown = {
    'own code': perRequest(totals['own code']), node: perRequest(totals.node), native: perRequest(totals.native),
    gc: perRequest(totals.gc), v8: perRequest(totals.v8), idle: perRequest(totals.idle),
  };
  return { ...breakdown, busy: breakdown['own code'] + breakdown.node + breakdown.native + breakdown.gc + breakdown.v8 };
}
