import { createHash } from 'node:crypto';

/**
 * The SHA-256 of a text or bytes in base64 (`base64url` for an entity tag): what a
 * Content-Security-Policy admits an inline script or style by, and what the docs site's ETags are.
 * Node, Deno and Bun all have `node:crypto`; the kernel needs no digest at all.
 */
export function sha256Base64(content: string | Uint8Array, encoding: 'base64' | 'base64url' = 'base64'): string {
  return createHash('sha256').update(content).digest(encoding);
}
