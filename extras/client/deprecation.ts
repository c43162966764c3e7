import { findLink, parseLinkHeader } from './link-header.js';
import type { LinkValue } from './link-header.js';
import type { FetchHeaders } from './fetch.js';

/** What a response said about the deprecation of the operation that produced it. */
export interface DeprecationNotice {
  /** The client method that made the request, e.g. `getPet`. */
  operation: string;
  /** The request URL. */
  url: string;
  /** When the operation was deprecated (`Deprecation: @<seconds>`, RFC 9745); undefined when the header holds no date. */
  deprecatedAt: Date | undefined;
  /** When the operation goes away (`Sunset`, RFC 8594); undefined when not announced. */
  sunsetAt: Date | undefined;
  /** The target of `Link: rel="successor-version"`, when given. */
  successor: string | undefined;
  /** Every link of the response's `Link` header. */
  links: readonly LinkValue[];
}

/** RFC 9745 §2.1: a Structured Field Date, `@` and whole seconds since the epoch. */
const STRUCTURED_DATE = /^@(-?[0-9]{1,15})$/;

function readDate(value: string | null, parse: (text: string) => number): Date | undefined {
  if (value === null) return undefined;
  const time = parse(value.trim());
  return Number.isFinite(time) ? new Date(time) : undefined;
}

function secondsDate(text: string): number {
  const match = STRUCTURED_DATE.exec(text);
  return match?.[1] === undefined ? Number.NaN : Number(match[1]) * 1000;
}

/** The deprecation notice of a response, or undefined when it carries no `Deprecation` header. */
export function readDeprecation(headers: FetchHeaders, operation: string, url: string): DeprecationNotice | undefined {
  const deprecation = headers.get('deprecation');
  if (deprecation === null) return undefined;
  const links = parseLinkHeader(headers.get('link') ?? '');
  return {
    operation,
    url,
    deprecatedAt: readDate(deprecation, secondsDate),
    // RFC 8594 §3: the value is an HTTP-date, which Date.parse reads.
    sunsetAt: readDate(headers.get('sunset'), Date.parse),
    successor: findLink(links, 'successor-version'),
    links,
  };
}
