/** One link of a `Link` header [RFC 8288 §3]: its target as written, its relation types, its other parameters. */
export interface LinkValue {
  /** The URI reference between `<` and `>`, unresolved. */
  target: string;
  /** The relation types of the first `rel` parameter, lower-cased (RFC 8288 §3.3: compared case-insensitively). */
  rel: readonly string[];
  /** Every parameter by lower-cased name; the first occurrence wins, as RFC 8288 §3.3 has it for `rel`. */
  parameters: Readonly<Record<string, string>>;
}

const WHITE_SPACE = new Set([' ', '\t']);

/**
 * Parses a `Link` header field value [RFC 8288 §3] into its links. Commas and semicolons inside
 * `<…>` and quoted strings do not split; a link-value that does not start with `<` is skipped.
 */
export function parseLinkHeader(value: string): LinkValue[] {
  const links: LinkValue[] = [];
  let index = 0;
  const skipWhiteSpace = (): void => {
    while (index < value.length && WHITE_SPACE.has(value.charAt(index))) index++;
  };
  /** Reads a token up to (not including) the first of `stops`. */
  const readUntil = (stops: string): string => {
    const start = index;
    while (index < value.length && !stops.includes(value.charAt(index))) index++;
    return value.slice(start, index).trim();
  };
  const readQuoted = (): string => {
    let text = '';
    index++;
    while (index < value.length && value.charAt(index) !== '"') {
      // RFC 9110 §5.6.4: a backslash quotes the next character.
      if (value.charAt(index) === '\\') index++;
      text += value.charAt(index);
      index++;
    }
    index++;
    return text;
  };
  const skipToNextLink = (): void => {
    while (index < value.length && value.charAt(index) !== ',') {
      if (value.charAt(index) === '"') readQuoted();
      else index++;
    }
    index++;
  };

  while (index < value.length) {
    skipWhiteSpace();
    if (value.charAt(index) === ',') {
      index++;
      continue;
    }
    if (value.charAt(index) !== '<') {
      skipToNextLink();
      continue;
    }
    const end = value.indexOf('>', index);
    if (end === -1) break;
    const target = value.slice(index + 1, end);
    index = end + 1;
    const parameters: Record<string, string> = {};
    for (;;) {
      skipWhiteSpace();
      if (value.charAt(index) !== ';') break;
      index++;
      skipWhiteSpace();
      const name = readUntil('=;,').toLowerCase();
      let parameter = '';
      if (value.charAt(index) === '=') {
        index++;
        skipWhiteSpace();
        parameter = value.charAt(index) === '"' ? readQuoted() : readUntil(';,');
      }
      if (name !== '' && !Object.hasOwn(parameters, name)) parameters[name] = parameter;
    }
    const rel = (parameters['rel'] ?? '').toLowerCase().split(/[ \t]+/).filter((type) => type !== '');
    links.push({ target, rel, parameters });
    skipToNextLink();
  }
  return links;
}

/** The target of the first link with this relation type, or undefined. */
export function findLink(links: readonly LinkValue[], rel: string): string | undefined {
  return links.find((link) => link.rel.includes(rel.toLowerCase()))?.target;
}
