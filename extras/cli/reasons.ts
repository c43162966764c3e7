/** A system error's code (`ENOENT`, `ECONNREFUSED`), or undefined for any other value. */
export function systemCodeOf(error: unknown): string | undefined {
  const code = error instanceof Error ? Object.getOwnPropertyDescriptor(error, 'code')?.value : undefined;
  return typeof code === 'string' ? code : undefined;
}

/** Why an operation failed, in a few words: a system error's code (`ENOENT`), else the message. */
export function reasonOf(error: unknown): string {
  return systemCodeOf(error) ?? (error instanceof Error ? error.message : String(error));
}
