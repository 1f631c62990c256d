export interface Inventory {
  /** Hosts on live lines of the INI inventory. */
  readonly active: ReadonlySet<string>;
  /** Hosts that only appear on commented-out lines (e.g. nodes not racked yet). */
  readonly commented: ReadonlySet<string>;
  /** Groups as written: their live hosts and their `:children` groups. */
  readonly groups: ReadonlyMap<
    string,
    { readonly hosts: readonly string[]; readonly children: readonly string[] }
  >;
}

const HOST = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const SECTION = /^\[([^\]:]+)(?::(\w+))?\]$/;

/** Reads an Ansible INI inventory: hosts, groups with their children, and hosts only in comments. */
export function parseInventory(text: string): Inventory {
  const active = new Set<string>();
  const commented = new Set<string>();
  const groups = new Map<string, { hosts: string[]; children: string[] }>();
  const groupOf = (name: string) => {
    let group = groups.get(name);
    if (!group) {
      group = { hosts: [], children: [] };
      groups.set(name, group);
    }
    return group;
  };
  let section: { name: string; kind: 'hosts' | 'children' | 'vars' } = { name: 'ungrouped', kind: 'hosts' };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const header = SECTION.exec(line);
    if (header) {
      const kind = header[2] === 'children' ? 'children' : header[2] === 'vars' ? 'vars' : 'hosts';
      section = { name: header[1]!, kind };
      if (kind !== 'vars') groupOf(section.name);
      continue;
    }
    if (section.kind === 'vars') continue;
    const isComment = line.startsWith('#') || line.startsWith(';');
    const [first = '', ...vars] = (isComment ? line.replace(/^[#;]+\s*/, '') : line)
      .replace(/\s[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (!HOST.test(first) || first.includes('=')) continue;
    // A commented-out host line still reads `name key=value…`; prose in a comment does not.
    if (isComment && !vars.every((word) => word.includes('='))) continue;
    if (section.kind === 'children') {
      if (!isComment) groupOf(section.name).children.push(first);
      continue;
    }
    (isComment ? commented : active).add(first);
    if (!isComment) groupOf(section.name).hosts.push(first);
  }
  for (const host of active) commented.delete(host);
  return { active, commented, groups };
}

/** The hosts a group pattern names, through its children, as Ansible resolves `hosts: <group>`. */
export function groupMembers(inventory: Inventory, group: string): string[] {
  const members = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const entry = inventory.groups.get(name);
    if (!entry) return;
    for (const host of entry.hosts) members.add(host);
    for (const child of entry.children) visit(child);
  };
  visit(group);
  return [...members];
}
