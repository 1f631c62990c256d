import type { WorldConfig } from '../../config/world-config.js';
import { closestMatch } from '../command/closest-match.js';
import { printable } from '../command/printable.js';
import { isPlannedVerb, LIFECYCLE_VERBS, type PlannedCommand, verbSpec } from './lifecycle-verbs.js';
import type { ClusterTarget, NodeTarget, VerbReading, VerbTarget } from './verb-spec.js';

export type ParsedCommand =
  | { readonly ok: true; readonly command: PlannedCommand; readonly queue: boolean }
  | { readonly ok: false; readonly error: string; readonly suggestion?: string | undefined };

const MAX_LENGTH = 200;
// Words are plain ASCII: anything else (quotes, $, ;, unicode look-alikes) cannot be a name we know.
const WORD = /^[a-z0-9][a-z0-9-]*$/;
const FLAG = /^--[a-z]+(-[a-z]+)*$/;

/**
 * Turns user text into a command naming only clusters and nodes from the config, as the verb's spec
 * (`src/lifecycle/verbs/`) says: what it names, which options it takes.
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

  if (!isPlannedVerb(verb)) {
    return refuse(`unknown command "${printable(verb)}"`, closestMatch(verb, LIFECYCLE_VERBS));
  }
  const spec = verbSpec(verb);
  const refusedFlag = flags.find((flag) => spec.refusedFlags && Object.hasOwn(spec.refusedFlags, flag));
  if (refusedFlag !== undefined) return refuse(spec.refusedFlags![refusedFlag]!);
  // The checks take no lease, so there is nothing to queue behind.
  const allowedFlags = spec.mutating ? ['--queue', ...spec.flags] : spec.flags;
  for (const flag of flags) {
    if (!FLAG.test(flag) || !allowedFlags.includes(flag)) {
      const allowed = allowedFlags.length > 0 ? ` (${verb} takes ${allowedFlags.join(', ')})` : '';
      return refuse(`unknown option "${printable(flag)}" for ${verb}${allowed}`);
    }
  }
  const queue = flags.includes('--queue');
  const named = { verb, target: spec.target, world, queue };
  switch (spec.target) {
    case 'cluster':
      return commandOn(spec.read(flags, words), named, clusterNamed);
    case 'node':
      return commandOn(spec.read(flags, words), named, nodeNamed);
    case 'node or cluster':
      return commandOn(spec.read(flags, words), named, nodeOrClusterNamed);
  }
}

/** The verb's command on the target its one remaining word names, or why not. */
function commandOn<Target extends ClusterTarget>(
  reading: VerbReading<Target, PlannedCommand> | string,
  { verb, target, world, queue }: { verb: string; target: VerbTarget; world: WorldConfig; queue: boolean },
  named: (name: string, world: WorldConfig) => Target | ParsedCommand,
): ParsedCommand {
  if (typeof reading === 'string') return refuse(reading);
  if (reading.words.length !== 1) {
    const first = Object.values(world.clusters)[0];
    const example = target === 'node' ? (first?.nodes[0]?.name ?? 'node') : (first?.name ?? 'cluster');
    return refuse(`${verb} takes exactly one ${target}, e.g. \`${verb} ${example}\``);
  }
  const found = named(reading.words[0]!, world);
  return 'cluster' in found ? { ok: true, command: reading.command(found), queue } : found;
}

function clusterNamed(name: string, world: WorldConfig): ClusterTarget | ParsedCommand {
  const clusters = Object.keys(world.clusters);
  if (WORD.test(name) && clusters.includes(name)) return { cluster: name };
  return refuse(
    `unknown cluster "${printable(name)}" (known: ${clusters.join(', ')})`,
    closestMatch(name, clusters),
  );
}

function nodeNamed(name: string, world: WorldConfig): NodeTarget | ParsedCommand {
  const nodes = nodesOf(world);
  const node = findNode(name, world);
  if (node) return node;
  return refuse(
    `unknown node "${printable(name)}": not in the inventory`,
    closestMatch(
      name,
      nodes.map((n) => n.name),
    ),
  );
}

function nodeOrClusterNamed(name: string, world: WorldConfig): ClusterTarget | NodeTarget | ParsedCommand {
  const clusters = Object.keys(world.clusters);
  if (WORD.test(name) && clusters.includes(name)) return { cluster: name };
  const node = findNode(name, world);
  if (node) return node;
  const nodes = nodesOf(world);
  return refuse(
    `unknown node or cluster "${printable(name)}" (clusters: ${clusters.join(', ')}; nodes: ${nodes.map((n) => n.name).join(', ')})`,
    closestMatch(name, [...clusters, ...nodes.map((n) => n.name)]),
  );
}

function findNode(name: string, world: WorldConfig): NodeTarget | undefined {
  const node = WORD.test(name) ? nodesOf(world).find((candidate) => candidate.name === name) : undefined;
  return node && { cluster: node.cluster, node: node.name };
}

function nodesOf(world: WorldConfig) {
  return Object.values(world.clusters).flatMap((cluster) => cluster.nodes);
}

function refuse(error: string, suggestion?: string): ParsedCommand {
  return { ok: false, error, suggestion };
}
