import type { NodeEntry } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import type { PresentedHostKey } from '../ports/remote-shell.js';
import { captureRemote } from '../remote/capture-remote.js';
import { opsTarget } from '../targets.js';
import { knownHostsLine, knownHostsName } from './known-hosts-entry.js';

/**
 * Drops every key the file holds for the host (hashed entries too: `ssh-keygen -R`), appends the
 * accepted one, then prints the file used and what `ssh-keygen -F` now finds for the host.
 * $1 the file ('' = the ops user's ~/.ssh/known_hosts), $2 the host name, $3 the new line.
 */
const SCRIPT = [
  'set -eu',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
  'file=${1:-$HOME/.ssh/known_hosts}',
  'umask 077',
  'mkdir -p -- "$(dirname -- "$file")"',
  '[ -e "$file" ] || : >"$file"',
  'ssh-keygen -R "$2" -f "$file" >/dev/null 2>&1',
  'printf "%s\\n" "$3" >>"$file"',
  'printf "%s\\n" "$file"',
  'ssh-keygen -l -F "$2" -f "$file"',
].join('\n');

/**
 * The playbooks' own SSH on the ops host reads its known_hosts: after a rebuild the node's old key
 * there would stop ansible (or, with checking off, be silently replaced). Returns the file changed.
 */
export async function updateOpsKnownHosts(
  ctx: StepContext,
  node: NodeEntry,
  key: PresentedHostKey,
): Promise<string> {
  const name = knownHostsName(ctx.cluster, node);
  const argv = [
    'sh',
    '-c',
    SCRIPT,
    'cluster-bot-known-hosts',
    ctx.world.ops.ansibleKnownHostsPath ?? '',
    name,
    knownHostsLine(ctx.cluster, node, key),
  ];
  const result = await captureRemote(ctx, opsTarget(ctx.world), argv);
  const [file = '', ...found] = result.stdout.split('\n');
  const fingerprints = found.flatMap((line) => line.match(/SHA256:[A-Za-z0-9+/]+/g) ?? []);
  if (
    result.exitCode !== 0 ||
    fingerprints.length === 0 ||
    fingerprints.some((fp) => fp !== key.fingerprint)
  ) {
    throw new ClusterBotError(
      'COMMAND_FAILED',
      `could not update the ops host's known_hosts for ${name}: ${result.stderr.trim() || `it now holds ${fingerprints.join(', ') || 'no key'} instead of ${key.fingerprint}`}`,
      { details: { node: node.name, exitCode: result.exitCode, found: fingerprints } },
    );
  }
  return file;
}
