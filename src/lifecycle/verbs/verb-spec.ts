import type { ClusterConfig, NodeEntry, WorldConfig } from '../../config/world-config.js';
import { ClusterBotError } from '../../errors.js';
import type { Step } from '../plan/step.js';

/** What a verb's one word names: a cluster, a node of one, or either (the node's cluster then comes with it). */
export interface ClusterTarget {
  readonly cluster: string;
}
export interface NodeTarget {
  readonly cluster: string;
  readonly node: string;
}

/** The command a verb's words make once its options are read: the words left name the target. */
export interface VerbReading<Target, Command> {
  readonly words: readonly string[];
  command(target: Target): Command;
}

/** A command's shape: its verb and the cluster it runs on (a node verb's node is in its cluster). */
export interface VerbCommand {
  readonly verb: string;
  readonly cluster: string;
}

interface VerbBasics<Command extends VerbCommand> {
  readonly verb: Command['verb'];
  /**
   * It changes the cluster: it takes the cluster's lease (one at a time per cluster) and accepts
   * `--queue` to wait behind a busy one. A check (verify, health, drift) only looks.
   */
  readonly mutating: boolean;
  /** The options it takes besides `--queue`, as typed (`--rollback`). */
  readonly flags: readonly string[];
  /** Options refused with their own reason, before any other option is looked at. */
  readonly refusedFlags?: Readonly<Record<string, string>>;
  /** Its lines of `/cluster help`, each `` `usage`: what it does ``. */
  readonly help: readonly string[];
  /** The ordered steps it runs: a pure function of the command and the config. */
  plan(command: Command, world: WorldConfig, cluster: ClusterConfig): readonly Step[];
}

/**
 * One lifecycle verb, whole: what it names, its options, whether it changes the cluster, its help and
 * its plan. The parser, `isMutating`, `buildPlan`, the help and the `/cluster` handlers are derived
 * from these (`lifecycle-verbs.ts` lists them).
 */
export type VerbSpec<Command extends VerbCommand> = VerbBasics<Command> &
  (
    | { readonly target: 'cluster'; readonly read: ReadOptions<ClusterTarget, Command> }
    | { readonly target: 'node'; readonly read: ReadOptions<NodeTarget, Command> }
    | { readonly target: 'node or cluster'; readonly read: ReadOptions<ClusterTarget | NodeTarget, Command> }
  );

/** Reads the verb's own options from its flags and words: the reading, or why they are refused. */
type ReadOptions<Target, Command> = (
  flags: readonly string[],
  words: readonly string[],
) => VerbReading<Target, Command> | string;

export type VerbTarget = VerbSpec<VerbCommand>['target'];

/** A verb with no options of its own: every word names the target. */
export function targetOnly<Target, Command>(command: (target: Target) => Command) {
  return (_flags: readonly string[], words: readonly string[]): VerbReading<Target, Command> => ({
    words,
    command,
  });
}

/** The config's entry for a node the parser found in the cluster. */
export function nodeOf(cluster: ClusterConfig, name: string): NodeEntry {
  const node = cluster.nodes.find((candidate) => candidate.name === name);
  if (!node) throw new ClusterBotError('TARGET_UNKNOWN', `unknown node ${name}`);
  return node;
}
