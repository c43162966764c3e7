/** The response headers the client reads. */
export interface FetchHeaders {
  get(name: string): string | null;
}

/** The part of a Fetch API `Response` the client reads, so its types need neither DOM nor Node typings. */
export interface FetchResponse {
  status: number;
  headers: FetchHeaders;
  text(): Promise<string>;
}

/** The request the client sends. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  redirect: 'manual';
}

/** A `fetch` the client can use: the global one (Node ≥ 20) or any with the same shape, e.g. for tests or proxies. */
export type FetchFunction = (url: string, init: FetchInit) => Promise<FetchResponse>;
