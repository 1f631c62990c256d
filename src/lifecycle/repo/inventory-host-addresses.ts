const HOST_LINE = /^([A-Za-z0-9][A-Za-z0-9._-]*)((?:\s+[^\s#;]+=[^\s#;]+)*)/;

/**
 * The address Ansible connects to for each live host of an INI inventory: its `ansible_host`, else
 * its name (as Ansible falls back to inventory_hostname). Comments are not read: a host's address in
 * a comment is not where Ansible goes.
 */
export function inventoryHostAddresses(text: string): ReadonlyMap<string, string> {
  const addresses = new Map<string, string>();
  let inVars = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      inVars = /:vars\]$/.test(line) || /:children\]$/.test(line);
      continue;
    }
    if (inVars || line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const match = HOST_LINE.exec(line);
    if (!match) continue;
    const host = match[1]!;
    const ansibleHost = /(?:^|\s)ansible_host=(\S+)/.exec(match[2] ?? '')?.[1];
    if (ansibleHost !== undefined) addresses.set(host, ansibleHost);
    else if (!addresses.has(host)) addresses.set(host, host);
  }
  return addresses;
}
