export interface HostLine {
  readonly keyword: 'ok' | 'changed' | 'skipping' | 'fatal' | 'failed';
  readonly host: string;
  readonly unreachable: boolean;
  readonly item?: string;
  /** Text after `=>`: a JSON object, its opening `{` when it continues below, or '' (YAML below). */
  readonly body: string | null;
}

const HOST_LINE = /^(ok|changed|skipping|fatal|failed): \[([^\]]+)\](.*)$/;
// The loop label comes first and is free text; it ends at the `)` followed by ` =>` or the line end.
const ITEM = /^(?:\s*=>)?\s*\(item=(.*?)\)(?=\s*=>|\s*$)/;

/** Parses a default-callback result line such as `fatal: [k3s-dev-2]: FAILED! => {...}`. */
export function parseHostLine(line: string): HostLine | null {
  const match = HOST_LINE.exec(line);
  if (!match) return null;
  const keyword = match[1] as HostLine['keyword'];
  // A delegated result reads `[k3s-dev-2 -> k3s-dev-1]`: the host is the one the task ran for.
  const host = match[2]!.split(' -> ')[0]!.trim();
  let rest = match[3]!;
  const unreachable = rest.startsWith(': UNREACHABLE!');
  const item = ITEM.exec(rest);
  if (item) rest = rest.slice(0, item.index) + rest.slice(item.index + item[0].length);
  const arrow = rest.indexOf('=>');
  return {
    keyword,
    host,
    unreachable,
    ...(item ? { item: item[1]! } : {}),
    body: arrow === -1 ? null : rest.slice(arrow + 2).trim(),
  };
}
