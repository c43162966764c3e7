import { createMemoryStorage } from '../../lib/index.js';
import { validateNewPet } from '../../lib/validate.js';
import type { NewPet, PetStorage } from '../../lib/index.js';

/** What a create request must get, judged from its bytes by the interface's rules [issue 3 order of checks]. */
export type CreateVerdict = { status: 201; pet: NewPet } | { status: number; code: string };

/** The headers of a request, looked up case-insensitively (first one wins, as Node keeps the first). */
export function headerOf(headers: readonly (readonly [string, string])[], name: string): string | undefined {
  return headers.find(([candidate]) => candidate.toLowerCase() === name)?.[1];
}

function isAuthorised(authorization: string | undefined, apiKey: string): boolean {
  if (authorization === undefined || !/^bearer +/i.test(authorization)) return false;
  return authorization.replace(/^bearer +/i, '').trim() === apiKey;
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The verdict for `POST /v1/pets` with these headers and body. */
export function createVerdict(headers: readonly (readonly [string, string])[], body: Buffer, options: { apiKey: string; bodyLimit: number }): CreateVerdict {
  if (!isAuthorised(headerOf(headers, 'authorization'), options.apiKey)) return { status: 401, code: 'unauthorized' };
  if (!isJson(headerOf(headers, 'content-type'))) return { status: 415, code: 'unsupported_media_type' };
  if (body.length > options.bodyLimit) return { status: 413, code: 'payload_too_large' };
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return { status: 400, code: 'invalid_json' };
  }
  // RFC 8259 §8.1: a parser may ignore one leading byte order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { status: 400, code: 'invalid_json' };
  }
  try {
    return { status: 201, pet: validateNewPet(parsed) };
  } catch {
    return { status: 400, code: 'validation_failed' };
  }
}

/** A memory storage that counts inserts, so a test can tell whether a rejected request created anything. */
export function countingStorage(): { storage: PetStorage; inserts: () => number } {
  const inner = createMemoryStorage();
  let inserts = 0;
  const storage: PetStorage = {
    insert: (pet) => {
      inserts++;
      return inner.insert(pet);
    },
    get: (id) => inner.get(id),
    list: (query) => inner.list(query),
  };
  return { storage, inserts: () => inserts };
}

/** Own property names of Object.prototype, to detect prototype pollution. */
export function prototypeSnapshot(): string {
  return JSON.stringify([Object.getOwnPropertyNames(Object.prototype).sort(), Object.getOwnPropertyNames(Array.prototype).sort()]);
}
