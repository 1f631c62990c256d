export interface InventoryHosts {
  /** Hosts on live lines of the INI inventory. */
  readonly active: ReadonlySet<string>;
  /** Hosts that only appear on commented-out lines (e.g. nodes not racked yet). */
  readonly commented: ReadonlySet<string>;
}

const HOST = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Reads which hosts an Ansible INI inventory lists, and which it lists only in comments. */
export function parseInventory(text: string): InventoryHosts {
  const active = new Set<string>();
  const commented = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('[')) continue;
    const isComment = line.startsWith('#') || line.startsWith(';');
    const first = (isComment ? line.replace(/^[#;]+\s*/, '') : line).split(/\s+/)[0] ?? '';
    if (!HOST.test(first) || first.includes('=')) continue;
    (isComment ? commented : active).add(first);
  }
  for (const host of active) commented.delete(host);
  return { active, commented };
}
