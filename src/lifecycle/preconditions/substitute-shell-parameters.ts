const PARAMETER = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*|[1-9])(?::?-([^}]*))?\}|([1-9])|([A-Za-z_][A-Za-z0-9_]*))/g;

/**
 * Puts a script's positional parameters (`$1`, `${1}`) and environment (`$NAME`, `${NAME}`,
 * `${NAME:-fallback}`) into one of its words, from the command that runs it. A parameter the
 * command does not supply (and that has no fallback) stays as written: set at run time, unknown.
 */
export function substituteShellParameters(
  word: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): string {
  return word.replace(
    PARAMETER,
    (whole, braced?: string, fallback?: string, digit?: string, bare?: string) => {
      const name = braced ?? digit ?? bare ?? '';
      const value = /^[1-9]$/.test(name) ? args[Number(name) - 1] : env[name];
      return value ?? fallback ?? whole;
    },
  );
}
