import { apiKeysProblem, checkApiKeys, createAuthenticator } from './auth.js';
import type { AuthVerdict } from './auth.js';
import { describeError } from './log.js';
import type { Logger } from './log.js';

/**
 * The keys a core accepts: a list, or a function asked on every authenticated request, so keys can
 * rotate without a restart. The function returns a new array to change them: the same array (by
 * identity) is taken as unchanged, so asking costs one call and one comparison; a new array with
 * the same keys costs a comparison of the keys, and no new digests.
 */
export type ApiKeys = readonly string[] | (() => readonly string[]);

/** The keys of one core, which may change while it serves. */
export interface Keyring {
  /** Checks an `Authorization` header against the keys in force now. */
  authenticate(authorization: string | undefined): AuthVerdict;
}

/** Whether a value is a list of the same keys in the same order. */
function isSameList(keys: unknown, inForce: readonly string[]): boolean {
  return Array.isArray(keys) && keys.length === inForce.length && inForce.every((key, index) => keys[index] === key);
}

/**
 * Creates the keys of a core. The first list must be usable (a TypeError naming `caller` otherwise).
 * A later list from the function that is not usable, or a function that throws, keeps the keys in
 * force and is reported through `log` once (never quoting a key); the same refused array is not
 * reported again.
 */
export function createKeyring(caller: string, apiKeys: ApiKeys, log: Logger | undefined): Keyring {
  const source = typeof apiKeys === 'function' ? apiKeys : undefined;
  let inForce = typeof apiKeys === 'function' ? apiKeys() : apiKeys;
  checkApiKeys(caller, inForce);
  let authenticate = createAuthenticator(inForce);
  let refused: readonly string[] | undefined;
  let isSourceFailing = false;

  function refresh(ask: () => readonly string[]): void {
    let keys: readonly string[];
    try {
      keys = ask();
    } catch (error) {
      if (!isSourceFailing) log?.({ level: 'warn', msg: 'The API keys function failed; the keys in force stay', error: describeError(error) });
      isSourceFailing = true;
      return;
    }
    isSourceFailing = false;
    if (keys === inForce || keys === refused) return;
    if (isSameList(keys, inForce)) {
      inForce = keys;
      return;
    }
    const problem = apiKeysProblem(keys);
    if (problem !== undefined) {
      refused = keys;
      log?.({ level: 'warn', msg: 'The API keys function returned a list that cannot be used; the keys in force stay', problem });
      return;
    }
    inForce = keys;
    authenticate = createAuthenticator(inForce);
    log?.({ level: 'debug', msg: 'API keys changed', keys: inForce.length });
  }

  return {
    authenticate(authorization) {
      if (source !== undefined) refresh(source);
      return authenticate(authorization);
    },
  };
}
