import type { Random } from './prng.js';

/** One request to put on the wire. */
export interface RawRequest {
  method: string;
  target: string;
  /** Header lines in order; `Host` is added first unless present. */
  headers: readonly (readonly [string, string])[];
  body?: Buffer;
  /** How the body is framed; `chunked` splits it into random chunk sizes. Default `length`. */
  framing?: 'length' | 'chunked';
}

/** The bytes of a request, well framed; the head is encoded as UTF-8, so a non-ASCII target stays non-ASCII on the wire. */
export function requestBytes(request: RawRequest, random?: Random): Buffer {
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!request.headers.some(([name]) => name.toLowerCase() === 'host')) lines.push('Host: 127.0.0.1');
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const body = request.body;
  if (body === undefined) return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
  if (request.framing === 'chunked') {
    lines.push('Transfer-Encoding: chunked');
    const parts: Buffer[] = [Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8')];
    for (let start = 0; start < body.length;) {
      const size = Math.min(body.length - start, random === undefined ? 4096 : random.between(1, random.chance(0.5) ? 16 : 9000));
      parts.push(Buffer.from(`${size.toString(16)}\r\n`), body.subarray(start, start + size), Buffer.from('\r\n'));
      start += size;
    }
    parts.push(Buffer.from('0\r\n\r\n'));
    return Buffer.concat(parts);
  }
  lines.push(`Content-Length: ${body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), body]);
}

/** Percent-encodes some characters of a text at random (upper or lower hex), leaving it meaning the same. */
export function percentEncodeSome(text: string, random: Random, share = 0.3): string {
  let out = '';
  for (const character of text) {
    if (random.chance(share)) {
      const hex = Array.from(Buffer.from(character, 'utf8'), (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      out += random.chance(0.5) ? hex.toUpperCase() : hex;
    } else {
      out += character;
    }
  }
  return out;
}
