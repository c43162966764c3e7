import type { Answer, RequestSpec } from './exchange.js';
import type { FilledStore } from './fixture.js';
import type { ResponseValidator } from './response-validator.js';
import type { SpecPetStatus } from './spec.js';
import type { CheckInfo, Level } from './types.js';

/** The body of a createPet request the kit sends: always named `conformance-<runId>-…` [spec 2, NewPet]. */
export interface NewPetBody {
  readonly name: string;
  readonly categoryId: number;
  readonly status?: SpecPetStatus;
}

/** A pet this run created, as sent and as answered. */
export interface CreatedPet {
  readonly id: number;
  readonly sent: NewPetBody;
  readonly answer: Answer;
}

/** The pets a run creates once, for the checks that need pets to exist: one of each status and one without. */
export interface Fixture {
  /** In creation order. */
  readonly pets: readonly CreatedPet[];
  /** The largest id among them. */
  readonly maxId: number;
}

/** What a check can do: send requests, have pets, see earlier answers. */
export interface CheckContext {
  /** The base URL, without a trailing slash, e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string;
  /** Its path, e.g. `/v1`; `''` for a server at the root. */
  readonly basePath: string;
  readonly runId: string;
  /** Sends a request; rejects with NoAnswerError when no answer came, which fails the check. */
  send(request: RequestSpec): Promise<Answer>;
  /** The pets created for this run (created at the first call); rejects with CheckSkipped when they cannot be. */
  fixture(): Promise<Fixture>;
  /** Makes sure at least `least` pets exist (at most 101), creating the missing ones; see fillStore. */
  ensurePets(least: number): Promise<FilledStore>;
  /** `conformance-<runId>-<suffix>`: every pet the kit creates is named so, to be found and cleaned up. */
  petName(suffix: string): string;
  /** Every answer received so far for one operation. */
  answersTo(operationId: string): readonly Answer[];
  /** The response validator for this server's base path. */
  readonly validate: ResponseValidator;
}

/** A check: its description and what it does; resolves to what was seen, throws CheckFailure or CheckSkipped otherwise. */
export interface Check extends CheckInfo {
  run(context: CheckContext): Promise<string>;
}

/** A check of `clause` at `level` from its fields; the group is the first segment of its id. */
export function defineCheck(clause: string, level: Level, fields: Omit<Check, 'group' | 'clause' | 'level'>): Check {
  return { ...fields, clause, level, group: fields.id.split('/')[0] as string };
}

/** A NewPet the kit may create, named for this run. */
export function newPet(context: CheckContext, suffix: string, categoryId: number, status?: SpecPetStatus): NewPetBody {
  return status === undefined ? { name: context.petName(suffix), categoryId } : { name: context.petName(suffix), categoryId, status };
}

/** The id of a pet that exists, for requests whose answer must not depend on it (a 401); 1 when this run could create none. */
export async function somePetId(context: CheckContext): Promise<number> {
  return context.fixture().then((fixture) => (fixture.pets[0] as CreatedPet).id, () => 1);
}

/** The distance past the run's largest id at which the kit looks for a pet that does not exist. */
const MISSING_ID_OFFSET = 1_000_000;

/** An id no pet has: far past every id this run was given, so only a million creates during the run could reach it. */
export async function missingPetId(context: CheckContext): Promise<number> {
  const { maxId } = await context.fixture();
  return Math.min(maxId + MISSING_ID_OFFSET, Number.MAX_SAFE_INTEGER);
}

/** This project's record of its decisions where the spec is silent, which reference checks cite. */
export const DECISIONS = 'docs/spec-conformance.md';

/** The source of a reference check: a row of the "Where the spec is silent" table. */
export function decision(row: string, rfc?: string): string {
  return `${rfc === undefined ? '' : `${rfc}; `}decision "${row}" (${DECISIONS})`;
}

/** The source of a reference check tied to a clause row of the conformance document. */
export function clauseDecision(clause: string, rfc: string): string {
  return `${rfc}; clause ${clause} (${DECISIONS})`;
}
