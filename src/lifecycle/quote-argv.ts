/**
 * POSIX shell quoting: each argument becomes one word, whatever it contains.
 * The only way the bot turns an argv into a remote command line.
 */
export function quoteShellArgument(argument: string): string {
  if (argument.includes('\0')) throw new Error('an argument cannot contain a NUL byte');
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

export function quoteArgv(argv: readonly string[]): string {
  return argv.map(quoteShellArgument).join(' ');
}
