import type { CheckInfo, Level } from './types.js';

/** Which checks to run: a level, and `only`/`skip` selectors (a check id, a group or id prefix, or a section such as `4.1`). */
export interface Selection {
  level: Level;
  only: readonly string[];
  skip: readonly string[];
}

/** A section of the spec, as in `4` or `4.1`. */
const SECTION = /^[0-9]+(\.[0-9]+)*$/;

/** Whether a selector names a check: by its section (and subsections), its id, or a prefix of its id ending at a `/`. */
export function selects(check: CheckInfo, selector: string): boolean {
  if (SECTION.test(selector)) return check.clause === selector || check.clause.startsWith(`${selector}.`);
  const prefix = selector.endsWith('/') ? selector : `${selector}/`;
  return check.id === selector || check.id.startsWith(prefix);
}

/**
 * The checks a selection runs, in catalogue order: those of the level (`reference` includes `spec`),
 * narrowed to `only` when given, less `skip`. A selector naming no check, or a selection left empty,
 * is a mistake and throws a TypeError saying which.
 */
export function selectChecks<T extends CheckInfo>(checks: readonly T[], selection: Selection): T[] {
  for (const [option, selectors] of [['--only', selection.only], ['--skip', selection.skip]] as const) {
    const unknown = selectors.find((selector) => !checks.some((check) => selects(check, selector)));
    if (unknown !== undefined) throw new TypeError(`${option} ${JSON.stringify(unknown)} names no check, group or section; --list shows them`);
  }
  const chosen = checks.filter((check) => (selection.level === 'reference' || check.level === 'spec')
    && (selection.only.length === 0 || selection.only.some((selector) => selects(check, selector)))
    && !selection.skip.some((selector) => selects(check, selector)));
  if (chosen.length === 0) {
    throw new TypeError(`the selection leaves no check to run at level ${selection.level}${selection.level === 'spec' ? ' (reference-level checks need --level reference)' : ''}`);
  }
  return chosen;
}
