/** The response headers the client reads. */
export interface FetchHeaders {
  get(name: string): string | null;
}

/** What one read of a body stream gives: a chunk of bytes, or the end. */
export type FetchBodyChunk = { done: false; value: Uint8Array } | { done: true; value?: Uint8Array | undefined };

/** The reader of a body stream, as `ReadableStream.getReader()` returns it. */
export interface FetchBodyReader {
  read(): Promise<FetchBodyChunk>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a `ReadableStream` of bytes the client reads: chunk by chunk, so it can stop at its bound. */
export interface FetchBody {
  getReader(): FetchBodyReader;
}

/**
 * The part of a Fetch API `Response` the client reads, so its types need neither DOM nor Node typings.
 * The client reads `body` chunk by chunk when there is one; a response without it (a fetch of your
 * own) is read with `text()`, whose size is then checked only once it is whole.
 */
export interface FetchResponse {
  status: number;
  headers: FetchHeaders;
  body?: FetchBody | null;
  text(): Promise<string>;
}

/** The part of an `AbortSignal` a fetch reads, for typings that declare none. */
export interface FetchSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
}

/**
 * The runtime's `AbortSignal` where the typings in use declare one (DOM, Node, Deno, Bun), else
 * FetchSignal: so a fetch of your own can hand `init` to the global one, and the client's types
 * still need neither DOM nor Node typings.
 */
export type FetchAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer Signal } } ? Signal : FetchSignal;

/**
 * The request the client sends. `signal` is aborted when the attempt's time is up; a fetch that
 * ignores it is given up on all the same, but cannot free its connection.
 */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect: 'manual';
  signal: FetchAbortSignal;
}

/** A `fetch` the client can use: the global one (Node ≥ 20, Deno, Bun) or any with the same shape, e.g. for tests or proxies. */
export type FetchFunction = (url: string, init: FetchInit) => Promise<FetchResponse>;
