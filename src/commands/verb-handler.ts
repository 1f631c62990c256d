import type { WorldConfig } from '../config/world-config.js';
import type { Actor, Admission, ClusterService, Planned, Refusal, Submitted } from '../service/index.js';

export interface CommandContext {
  readonly actor: Actor;
  readonly service: ClusterService;
  readonly world: WorldConfig;
  /**
   * The command's admission (dedup, rate limit) while still to be taken: a verb that submits a job
   * claims it for the service, which takes it in the job's own write (`runCommand` takes what is left).
   */
  readonly admission?: { claim(): Admission | undefined } | undefined;
}

type ResultOf<Operation extends keyof ClusterService> = Exclude<
  Awaited<ReturnType<ClusterService[Operation]>>,
  Refusal | undefined
>;

/** A command's answer as data; the edge (Slack, the console) words it. */
export type CommandReply =
  | { readonly kind: 'help' }
  | Submitted
  | Planned
  | ResultOf<'cancel'>
  | ResultOf<'status'>
  | ResultOf<'jobs'>
  | ResultOf<'audit'>
  | Refusal;

/** What a verb does with the words typed after it, and who typed them where. */
export type HandleWords = (words: readonly string[], context: CommandContext) => Promise<CommandReply>;

/**
 * One verb of `/cluster`: its handler, its lines of the help (each `` `usage`: what it does ``), and
 * `submitsJob`: it claims the command's admission for its job's write; every other verb runs once
 * it is admitted.
 */
export type VerbHandler = HandleWords & {
  readonly help: readonly string[];
  readonly submitsJob?: true;
};

export function verbHandler(
  handle: HandleWords,
  about: { readonly help: readonly string[]; readonly submitsJob?: true },
): VerbHandler {
  return Object.assign(handle, about);
}
