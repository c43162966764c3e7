// The types of docs/spec-conformance.md's table of clauses, and the table, which `npm run interface-text` generates into
// conformance-map.json beside this module; test/docs/spec-conformance.test.ts fails when the data is older than the document.
import map from './conformance-map.json' with { type: 'json' };

/** A file a row cites, with the symbols or test names it cites in it. */
export interface CitedFile {
  readonly path: string;
  readonly names: readonly string[];
}

/** One clause the implementation maps: the sections, what the spec says, and the code and tests that hold it. */
export interface HeldClause {
  /** The sections of the interface it maps (`4.3`, `9`). */
  readonly sections: readonly string[];
  /** What follows the numbers in its clause cell (`NewPet`), as HTML; empty when nothing does. */
  readonly labelHtml: string;
  /** What the spec says, as HTML. */
  readonly saysHtml: string;
  readonly code: readonly CitedFile[];
  readonly tests: readonly CitedFile[];
  /** A cell that cites no file (`nothing to implement: …`), as HTML. */
  readonly codeNoteHtml?: string;
  readonly testsNoteHtml?: string;
}

/** The generated data: where a repository path opens (package.json's `repository`, or null), and the rows. */
export interface ConformanceMap {
  readonly repositoryFilesUrl: string | null;
  readonly clauses: readonly HeldClause[];
}

const CONFORMANCE_MAP: ConformanceMap = map;

/** Where a repository path opens, or undefined: then a path is to open in a clone. */
export const REPOSITORY_FILES_URL: string | undefined = CONFORMANCE_MAP.repositoryFilesUrl ?? undefined;

/** The rows of docs/spec-conformance.md's table of clauses, in its order. */
export const HELD_CLAUSES: readonly HeldClause[] = CONFORMANCE_MAP.clauses;
