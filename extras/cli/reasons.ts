/** Why an operation failed, in a few words: a system error's code (`ENOENT`), else the message. */
export function reasonOf(error: unknown): string {
  const code = error instanceof Error ? Object.getOwnPropertyDescriptor(error, 'code')?.value : undefined;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
