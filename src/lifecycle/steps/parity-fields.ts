const MARKER = '[parity]';
const KEY_LINE = /^(\s*)([A-Za-z0-9_.-]+):(.*)$/;
const VALUES_PREFIX = 'spec.values.';

/**
 * The Helm values paths the HelmRelease marks `# [parity]` (the file is authoritative: marked
 * fields must equal the Ansible template and values.yaml). A marker ends the key's line, or sits
 * on a comment line right above the key it marks. Read from the text because YAML parsers do not
 * keep comments where a line reader can see them plainly.
 */
export function parityFieldsOf(helmrelease: string): string[] {
  const marked: string[] = [];
  const path: { indent: number; key: string }[] = [];
  let markNext = false;
  for (const line of helmrelease.split('\n')) {
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
      full.startsWith(VALUES_PREFIX)
    ) {
      marked.push(full.slice(VALUES_PREFIX.length));
    }
    markNext = false;
  }
  return marked;
}
