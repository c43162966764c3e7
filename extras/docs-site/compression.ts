import { entityTagOf, matchesIfNoneMatch, REVALIDATE } from './conditional.js';
import { headerOf } from '../../server/core/index.js';
import type { BareResponse, HeaderList, RequestHeaders } from '../../server/core/index.js';

/** The content codings the docs site can apply [RFC 9110 §8.4.1], in the order it prefers them when a client accepts several equally. */
const CODINGS = ['br', 'gzip'] as const;

/** A content coding the docs site can apply. */
export type ContentCoding = (typeof CODINGS)[number];

/** The answer's representation depends on the request's `Accept-Encoding` [RFC 9110 §12.5.5]. */
const VARY_ACCEPT_ENCODING: HeaderList = ['Vary', 'Accept-Encoding'];

/** A web `CompressionStream` of a coding, by a format name Node 20's types do not list (`brotli`); a runtime without the format throws a TypeError. */
function compressionOf(coding: ContentCoding): CompressionStream {
  return new (CompressionStream as new (format: string) => CompressionStream)(coding === 'br' ? 'brotli' : 'gzip');
}

/** The codings this runtime's web `CompressionStream` produces: `gzip` everywhere, `br` where it has `brotli` (Deno and Bun do; Node 20 does not). */
export function availableCodings(): ContentCoding[] {
  return CODINGS.filter((coding) => {
    try {
      compressionOf(coding);
      return true;
    } catch {
      return false;
    }
  });
}

/** The bytes in a content coding, through the web `CompressionStream`. */
async function compress(bytes: Uint8Array, coding: ContentCoding): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(compressionOf(coding))).arrayBuffer());
}

/** A qvalue [RFC 9110 §12.4.2]: 0 to 1 with at most three decimals; anything else counts as 0, so a coding is never sent on a weight the client did not clearly give. */
function qualityOf(text: string): number {
  return /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text) ? Number(text) : 0;
}

/**
 * The coding to answer in, given the request's `Accept-Encoding` [RFC 9110 §12.5.3], or undefined
 * for none (identity). Without the header, or with it empty, the answer is not encoded. A coding is
 * acceptable when listed, or covered by `*`, with a nonzero qvalue; `identity` is acceptable unless
 * excluded by `identity;q=0` or by `*;q=0` without an `identity` entry. The highest qvalue wins; a
 * coding beats identity on a tie, and always when identity has no weight of its own (a client that
 * lists `gzip;q=0.8` wants gzip), and `br` beats `gzip` on a tie. When nothing
 * is acceptable, identity is sent anyway rather than a 406 (as RFC 7231 §5.3.4 advised), so a
 * client always gets the document. `x-gzip` is `gzip` [RFC 9110 §8.4.1.3].
 */
export function negotiateCoding(acceptEncoding: string | undefined, available: readonly ContentCoding[]): ContentCoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const weights = new Map<string, number>();
  for (const element of acceptEncoding.split(',')) {
    const [rawName = '', ...parameters] = element.split(';');
    const name = rawName.trim().toLowerCase();
    if (name === '') continue;
    // The last `q` parameter holds; none means 1.
    const quality = parameters.map((parameter) => /^\s*q\s*=\s*(.*?)\s*$/i.exec(parameter)?.[1]).filter((value) => value !== undefined).at(-1);
    const weight = quality === undefined ? 1 : qualityOf(quality);
    const coding = name === 'x-gzip' ? 'gzip' : name;
    // A coding listed twice keeps its best weight.
    weights.set(coding, Math.max(weights.get(coding) ?? 0, weight));
  }
  const any = weights.get('*');
  let chosen: ContentCoding | undefined;
  // Identity neither listed nor covered by `*` is acceptable, yet has no weight of its own: any accepted coding beats it.
  let best = weights.get('identity') ?? any ?? 0;
  for (const coding of available) {
    const weight = weights.get(coding) ?? any ?? 0;
    if (weight > 0 && (weight > best || (weight === best && chosen === undefined))) {
      chosen = coding;
      best = weight;
    }
  }
  return chosen;
}

/** Options of createNegotiatedRepresentation. */
export interface NegotiatedRepresentationOptions {
  /** Headers of the 200 beside the media type, caching and validator ones (the page's Content-Security-Policy). */
  headers?: HeaderList;
  /** The codings offered. Default: availableCodings(). */
  codings?: readonly ContentCoding[];
}

/** A text served in the content coding each request accepts, each coding built once. */
export interface NegotiatedRepresentation {
  /**
   * The answer to a GET or HEAD in the coding the request accepts: 304 when `If-None-Match` names its tag [RFC 9110 §13.1.2],
   * otherwise 200 (the core drops a HEAD's body); a promise only while a coding is compressed for the first time.
   */
  respond(requestHeaders: RequestHeaders): BareResponse | Promise<BareResponse>;
}

/**
 * A text as a representation of `contentType` in several content codings [RFC 9110 §8.4]: the identity one encoded and hashed
 * now, each compressed one at the first request that accepts it. Each has its own tag, as a strong validator must [RFC 9110
 * §8.8.3.3]: the identity's with the coding appended (`"…-gzip"`), so a 304 is decided without compressing.
 */
export function createNegotiatedRepresentation(text: string, contentType: string, options: NegotiatedRepresentationOptions = {}): NegotiatedRepresentation {
  const descriptive = ['Content-Type', contentType, 'Cache-Control', REVALIDATE, 'X-Content-Type-Options', 'nosniff', ...(options.headers ?? [])];
  const bytes = new TextEncoder().encode(text);
  const identityTag = entityTagOf(text);
  /** The tag of the identity representation with a coding appended inside its quotes. */
  const tagOf = (coding?: ContentCoding): string => (coding === undefined ? identityTag : `${identityTag.slice(0, -1)}-${coding}"`);
  /** The 200 of the bytes in a coding (none: identity). */
  const full = (body: Uint8Array, coding?: ContentCoding): BareResponse => {
    const encoding = coding === undefined ? [] : ['Content-Encoding', coding];
    return { status: 200, headers: [...descriptive, ...encoding, ...VARY_ACCEPT_ENCODING, 'ETag', tagOf(coding), 'Content-Length', String(body.length)], body };
  };
  const identity = full(bytes);
  const codings = options.codings ?? availableCodings();
  /** Each coding's 200 once compressed, or the compression under way. */
  const answers = new Map<ContentCoding, BareResponse | Promise<BareResponse>>();
  return {
    respond(requestHeaders) {
      const coding = negotiateCoding(headerOf(requestHeaders, 'accept-encoding'), codings);
      const entityTag = tagOf(coding);
      // Decided on the tag alone, so a 304 never waits for a compression; it repeats what the 200 says of caching and variance [RFC 9110 §15.4.5].
      if (matchesIfNoneMatch(headerOf(requestHeaders, 'if-none-match'), entityTag)) {
        return { status: 304, headers: ['ETag', entityTag, 'Cache-Control', REVALIDATE, ...VARY_ACCEPT_ENCODING], body: '' };
      }
      if (coding === undefined) return identity;
      const known = answers.get(coding);
      if (known !== undefined) return known;
      const pending = compress(bytes, coding).then((compressed) => {
        const answer = full(compressed, coding);
        answers.set(coding, answer);
        return answer;
      }, () => {
        // A later request tries again; this one gets the identity representation, which every client can read.
        answers.delete(coding);
        return identity;
      });
      answers.set(coding, pending);
      return pending;
    },
  };
}
