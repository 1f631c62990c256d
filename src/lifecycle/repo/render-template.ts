/** A variable's value by name: null when it is set nowhere (a default applies), undefined when the bot cannot tell. */
export type VarLookup = (name: string) => string | null | undefined;

const EXPRESSION = /\{\{(.*?)\}\}/g;
const NAME = /^[a-z_][a-z0-9_]*$/i;
const QUOTED = /^(['"])(.*)\1$/;
const DEFAULT_FILTER = /^default\((.*)\)$/;

/**
 * Renders the part of Jinja a vars file ordinarily uses: `{{ name }}`, a quoted literal, and
 * `| default(x)` (x a literal or a name), applied as Ansible applies it (the default only when the
 * value is undefined). Anything else (another filter, an expression, a `{% %}` block, an unknown
 * name) is undefined: a guess would defeat the point, and Ansible itself can be asked instead.
 */
export function renderTemplate(text: string, lookup: VarLookup): string | undefined {
  if (text.includes('{%')) return undefined;
  let unresolved = false;
  const rendered = text.replace(EXPRESSION, (_match, inner: string) => {
    const value = evaluate(inner, lookup);
    if (value === undefined) unresolved = true;
    return value ?? '';
  });
  return unresolved ? undefined : rendered;
}

function evaluate(expression: string, lookup: VarLookup): string | undefined {
  const [head, ...filters] = expression.split('|').map((part) => part.trim());
  let value = term(head ?? '', lookup);
  for (const filter of filters) {
    const fallback = DEFAULT_FILTER.exec(filter);
    if (!fallback || value === undefined) return undefined;
    if (value === null) value = term(fallback[1]!.trim(), lookup);
  }
  return value ?? undefined;
}

function term(text: string, lookup: VarLookup): string | null | undefined {
  const quoted = QUOTED.exec(text);
  if (quoted) return quoted[2]!.includes('{{') ? undefined : quoted[2];
  return NAME.test(text) ? lookup(text) : undefined;
}
