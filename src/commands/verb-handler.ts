import type { WorldConfig } from '../config/world-config.js';
import type { Actor, ClusterService, Planned, Refusal, Submitted } from '../service/index.js';

export interface CommandContext {
  readonly actor: Actor;
  readonly service: ClusterService;
  readonly world: WorldConfig;
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

/** One verb of `/cluster`: the words typed after it, and who typed them where. */
export type VerbHandler = (words: readonly string[], context: CommandContext) => Promise<CommandReply>;
