const MARKER = '[parity]';
const KEY_LINE = /^(\s*)([A-Za-z0-9_.-]+):(.*)$/;
const HELMRELEASE_VALUES = 'spec.values.';

/**
 * The Helm values paths a file marks `# [parity]`: the HelmRelease's under `spec.values` (the
 * default), the Ansible template's and values.yaml's at the top (valuesPrefix ''). A marker ends the
 * key's line, or sits on a comment line right above the key it marks. Read from the text because
 * YAML parsers do not keep comments where a line reader can see them plainly.
 */
export function parityFieldsOf(text: string, valuesPrefix = HELMRELEASE_VALUES): string[] {
  const marked: string[] = [];
  const path: { indent: number; key: string }[] = [];
  let markNext = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('#')) {
      markNext ||= trimmed.includes(MARKER);
      continue;
    }
    const match = KEY_LINE.exec(line);
    if (!match) continue;
    const [, spaces = '', key = '', rest = ''] = match;
    while (path.length > 0 && path.at(-1)!.indent >= spaces.length) path.pop();
    path.push({ indent: spaces.length, key });
    const full = path.map((part) => part.key).join('.');
    const comment = rest.indexOf('#');
    if (
      (markNext || (comment >= 0 && rest.slice(comment).includes(MARKER))) &&
      full.startsWith(valuesPrefix)
    ) {
      marked.push(full.slice(valuesPrefix.length));
    }
    markNext = false;
  }
  return marked;
}
