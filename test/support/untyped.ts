import type { NewPet } from '../../lib/index.js';

/**
 * A value as a JavaScript caller passes it, unchecked by TypeScript: the engine and the client still
 * validate it at run time, which is what the tests that use this show.
 */
export function untyped(value: unknown): NewPet {
  return value as NewPet;
}
