import { PetstoreError } from '../../lib/index.js';

/** Table the PostgreSQL storage uses when none is configured. */
export const DEFAULT_TABLE = 'pets';

/**
 * Longest accepted name part: PostgreSQL truncates identifiers at 63 bytes, and the names derived
 * from the table (`<table>_status_id_idx`, `<table>_idem_key_idx`, `<table>_list_after`) must fit too, or two tables
 * could share one.
 */
const MAX_NAME_PART_LENGTH = 48;

/** Plain, unquoted identifiers only: they need no escaping and mean the same in every client. */
const NAME_PART = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A validated table name, in the forms the SQL statements need. */
export interface TableName {
  /** The name as configured (`pets` or `schema.pets`), for messages. */
  text: string;
  /** The quoted, possibly schema-qualified identifier to splice into SQL text or cast to `regclass`. */
  sql: string;
  /** The quoted name of the (status, id) index; indexes live in their table's schema. */
  statusIndexSql: string;
  /** The quoted name of the unique index of idempotency keys. */
  keyIndexSql: string;
}

function quote(identifier: string): string {
  return `"${identifier}"`;
}

/** The quoted name of an object derived from the table (`<table><suffix>`), in the table's schema. */
export function siblingName(table: TableName, suffix: string): string {
  const parts = table.text.split('.');
  return parts.map((part, index) => quote(index === parts.length - 1 ? `${part}${suffix}` : part)).join('.');
}

/**
 * Validates a configured table name: `table` or `schema.table`, each part a plain identifier of
 * at most 48 characters. Identifiers cannot be sent as query parameters, so this is what keeps
 * the spliced name from being SQL.
 */
export function parseTableName(name: string): TableName {
  const parts = name.split('.');
  const isValid =
    parts.length <= 2 && parts.every((part) => NAME_PART.test(part) && part.length <= MAX_NAME_PART_LENGTH);
  const table = parts.at(-1);
  if (!isValid || table === undefined) {
    throw new PetstoreError(
      'internal_error',
      `Invalid PostgreSQL table name ${JSON.stringify(name)}: expected \`table\` or \`schema.table\`, each part letters, digits and underscores, not starting with a digit, at most ${MAX_NAME_PART_LENGTH} characters`,
    );
  }
  return {
    text: name,
    sql: parts.map(quote).join('.'),
    statusIndexSql: quote(`${table}_status_id_idx`),
    keyIndexSql: quote(`${table}_idem_key_idx`),
  };
}
