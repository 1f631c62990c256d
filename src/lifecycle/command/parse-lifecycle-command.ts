import type { WorldConfig } from '../../config/world-config.js';
import { closestMatch } from './closest-match.js';
import { type CiliumMode, LIFECYCLE_VERBS, type PlannedCommand } from './lifecycle-command.js';

export type ParsedCommand =
  | { readonly ok: true; readonly command: PlannedCommand; readonly queue: boolean }
  | { readonly ok: false; readonly error: string; readonly suggestion?: string | undefined };

const MAX_LENGTH = 200;
const NO_PRIMARY_FLAG =
  '--primary is not accepted: the --cluster-init founder (the k3s_primary_group group in hosts.ini) is never ' +
  'reprovisioned in place, since re-running k3s on it after a wipe founds a new cluster. Move the founder role to ' +
  'another server in inventory/hosts.ini, commit, then reprovision the node';
// Words are plain ASCII: anything else (quotes, $, ;, unicode look-alikes) cannot be a name we know.
const WORD = /^[a-z0-9][a-z0-9-]*$/;
const FLAG = /^--[a-z]+(-[a-z]+)*$/;
// A Helm revision number as helm prints it.
const REVISION = /^[1-9][0-9]{0,5}$/;

/**
 * Turns user text into a command naming only clusters and nodes from the config.
 * Anything else is refused here, before a job exists, with the nearest valid spelling when there is one.
 */
export function parseLifecycleCommand(text: string, world: WorldConfig): ParsedCommand {
  if (text.length > MAX_LENGTH)
    return refuse(`command is too long (${text.length} characters, at most ${MAX_LENGTH})`);
  const tokens = text
    .trim()
    .split(/[ \t]+/)
    .filter(Boolean);
  if (tokens.length === 0) return refuse('no command given');
  const [verb, ...rest] = tokens as [string, ...string[]];
  const flags = rest.filter((token) => token.startsWith('--'));
  const words = rest.filter((token) => !token.startsWith('--'));

  if (!(LIFECYCLE_VERBS as readonly string[]).includes(verb)) {
    return refuse(`unknown command "${printable(verb)}"`, closestMatch(verb, LIFECYCLE_VERBS));
  }
  // The checks take no lease, so there is nothing to queue behind.
  const allowedFlags =
    verb === 'verify' || verb === 'health' || verb === 'drift'
      ? []
      : verb === 'cilium'
        ? ['--queue', ...CILIUM_MODE_FLAGS]
        : ['--queue'];
  if (verb === 'reprovision' && flags.includes('--primary')) return refuse(NO_PRIMARY_FLAG);
  for (const flag of flags) {
    if (!FLAG.test(flag) || !allowedFlags.includes(flag)) {
      const allowed = allowedFlags.length > 0 ? ` (${verb} takes ${allowedFlags.join(', ')})` : '';
      return refuse(`unknown option "${printable(flag)}" for ${verb}${allowed}`);
    }
  }
  const mode = verb === 'cilium' ? parseCiliumMode(flags, words) : undefined;
  if (typeof mode === 'string') return refuse(mode);
  if (mode?.kind === 'rollback' && mode.revision !== undefined) words.pop();
  if (words.length !== 1) {
    const what = verb === 'reprovision' || verb === 'packages' ? 'node' : 'cluster';
    const takes = verb === 'health' ? 'node or cluster' : what;
    return refuse(`${verb} takes exactly one ${takes}, e.g. \`${verb} ${example(world, what)}\``);
  }
  const name = words[0]!;
  const queue = flags.includes('--queue');
  const nodes = Object.values(world.clusters).flatMap((cluster) => cluster.nodes);
  const clusters = Object.keys(world.clusters);
  const node = WORD.test(name) ? nodes.find((candidate) => candidate.name === name) : undefined;

  if (verb === 'health') {
    if (WORD.test(name) && clusters.includes(name))
      return { ok: true, command: { verb, cluster: name }, queue: false };
    if (node) return { ok: true, command: { verb, cluster: node.cluster, node: node.name }, queue: false };
    return refuse(
      `unknown node or cluster "${printable(name)}" (clusters: ${clusters.join(', ')}; nodes: ${nodes.map((n) => n.name).join(', ')})`,
      closestMatch(name, [...clusters, ...nodes.map((n) => n.name)]),
    );
  }

  if (verb === 'reprovision' || verb === 'packages') {
    if (node === undefined) {
      return refuse(
        `unknown node "${printable(name)}": not in the inventory`,
        closestMatch(
          name,
          nodes.map((n) => n.name),
        ),
      );
    }
    return { ok: true, command: { verb, cluster: node.cluster, node: node.name }, queue };
  }

  if (!WORD.test(name) || !clusters.includes(name)) {
    return refuse(
      `unknown cluster "${printable(name)}" (known: ${clusters.join(', ')})`,
      closestMatch(name, clusters),
    );
  }
  if (verb === 'cilium')
    return { ok: true, command: { verb, cluster: name, ...(mode ? { mode } : {}) }, queue };
  return { ok: true, command: { verb: verb as 'up' | 'verify' | 'drift', cluster: name }, queue };
}

const CILIUM_MODE_FLAGS = ['--rollback', '--resume-flux'];

/**
 * `cilium <cluster> --rollback [revision]` or `--resume-flux`: the mode, undefined for a rollout,
 * or why the words are refused. A revision is a number after the cluster, and only with --rollback.
 */
function parseCiliumMode(
  flags: readonly string[],
  words: readonly string[],
): CiliumMode | undefined | string {
  const rollback = flags.includes('--rollback');
  const resume = flags.includes('--resume-flux');
  if (rollback && resume) return '--rollback and --resume-flux are two different jobs: give one';
  if (resume) return { kind: 'resume-flux' };
  if (!rollback) return undefined;
  if (words.length !== 2) return { kind: 'rollback' };
  const revision = words[1]!;
  if (!REVISION.test(revision))
    return `--rollback takes a revision number from helm history, not "${printable(revision)}"`;
  return { kind: 'rollback', revision: Number(revision) };
}

function refuse(error: string, suggestion?: string): ParsedCommand {
  return { ok: false, error, suggestion };
}

function example(world: WorldConfig, what: 'node' | 'cluster'): string {
  const first = Object.values(world.clusters)[0];
  return what === 'node' ? (first?.nodes[0]?.name ?? 'node') : (first?.name ?? 'cluster');
}

/** Echoes user text back safely: bounded, and with control characters made visible. */
function printable(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(shown).slice(1, -1);
}
