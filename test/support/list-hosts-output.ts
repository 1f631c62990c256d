/** What `ansible-playbook … --list-hosts` prints: one play per entry, with its pattern and hosts. */
export function listHostsOutput(
  playbook: string,
  plays: readonly { readonly pattern: string; readonly name: string; readonly hosts: readonly string[] }[],
): string[] {
  const lines = ['', `playbook: playbooks/${playbook}`];
  for (const [index, play] of plays.entries()) {
    lines.push(
      '',
      `  play #${index + 1} (${play.pattern}): ${play.name}\tTAGS: []`,
      `    pattern: ['${play.pattern}']`,
      `    hosts (${play.hosts.length}):`,
      ...play.hosts.map((host) => `      ${host}`),
    );
  }
  return lines;
}
