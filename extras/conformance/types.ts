/** The levels of the kit: what the interface states, and also this project's documented decisions where it is silent. */
export const LEVELS = ['spec', 'reference'] as const;

/** `spec` runs the checks of what the interface states; `reference` runs those and the checks of this project's decisions. */
export type Level = (typeof LEVELS)[number];

/** How a check ended: `skip` when something it needs (a pet this run created) could not be had. */
export type Outcome = 'pass' | 'fail' | 'skip';

/** A check as `--list` shows it, without running it. */
export interface CheckInfo {
  /** Stable id, `group/name[/operation]`, e.g. `auth/missing-key/listPets`. */
  readonly id: string;
  /** The first segment of the id. */
  readonly group: string;
  /** The section of the interface the check is about, e.g. `5.4` [spec 5.4]. */
  readonly clause: string;
  readonly level: Level;
  /** One sentence starting with the thing under test. */
  readonly title: string;
  /** Where the expectation comes from: `spec 4.1`, or the documented decision (and RFC) a reference check tests. */
  readonly source: string;
}

/** What a failed check sent, expected and received, each on one line. */
export interface FailureReport {
  readonly sent: string;
  readonly expected: string;
  readonly received: string;
}

/** The result of one check. */
export interface CheckResult extends CheckInfo {
  readonly outcome: Outcome;
  /** One line: what was seen on a pass, `sent …; expected …; received …` on a failure, the reason on a skip. */
  readonly detail: string;
  /** The parts of `detail` on a failure. */
  readonly failure?: FailureReport;
  /** Wall time of the check, for reports; never part of a verdict. */
  readonly durationMs: number;
}

/** Response headers as the kit reads them. */
export interface ConformanceHeaders {
  get(name: string): string | null;
}

/** A body stream as the Fetch API gives it, read with a cap so a server cannot send the kit an endless answer. */
export interface ConformanceBodyStream {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(): Promise<void>;
  };
}

/** The part of a Fetch API `Response` the kit reads, so its types need neither DOM nor Node typings. */
export interface ConformanceResponse {
  readonly status: number;
  readonly headers: ConformanceHeaders;
  readonly body?: ConformanceBodyStream | null;
  text(): Promise<string>;
}

/** An abort signal, as far as the kit's `fetch` is given one. */
export interface ConformanceSignal {
  readonly aborted: boolean;
}

/** The request the kit hands to `fetch`. */
export interface ConformanceRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect: 'manual';
  /** Aborted when the per-request timeout passes. */
  signal: ConformanceSignal;
}

/** A `fetch` the kit can use: the global one (Node ≥ 20, Deno, Bun) or any with the same shape. */
export type ConformanceFetch = (url: string, init: ConformanceRequestInit) => Promise<ConformanceResponse>;
