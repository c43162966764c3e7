/** Bytes in base64 with padding (RFC 4648 §4); `btoa` exists in Node, Deno, Bun, browsers and edge workers. */
export function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Bytes in base64url without padding (RFC 4648 §5), safe in a header value, a URL and a quoted string. */
export function base64UrlOf(bytes: Uint8Array): string {
  return base64Of(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
