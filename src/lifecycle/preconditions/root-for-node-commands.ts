import type { NodeEntry } from '../../config/world-config.js';
import { isClusterBotError } from '../../errors.js';
import { vaultProblem } from '../ansible/vault-decrypts.js';
import type { StepContext } from '../plan/step.js';
import { rootWithoutPassword } from '../remote/root-without-password.js';
import { groupVaultFile } from '../repo/read-repo-facts.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { nodeTarget } from '../targets.js';
import type { Precondition } from './precondition.js';

/** A command a plan's step runs as root on a node, and why the plan needs it. */
export interface NodeRootCommand {
  readonly command: string;
  readonly why: string;
  /** The node it will run on, as the step will choose it; undefined: no node (another check refuses). */
  node(ctx: StepContext): Promise<NodeEntry | undefined>;
}

/**
 * Every node where the plan runs a root command gives root one way: the bot's login is root or its
 * sudo needs no password, or else the ops host's Ansible can become root there (the vault decrypts
 * and holds the node's become password; the bot never holds it). Without this check a reprovision
 * would cordon and drain the node and only then fail at its first root command.
 */
export function rootForNodeCommands(commands: readonly NodeRootCommand[]): Precondition {
  return {
    label: 'root on nodes',
    async check(ctx, repo) {
      const byNode = new Map<string, { entry: NodeEntry; commands: NodeRootCommand[] }>();
      for (const command of commands) {
        const entry = await command.node(ctx);
        if (!entry) continue;
        const seen = byNode.get(entry.name) ?? { entry, commands: [] };
        seen.commands.push(command);
        byNode.set(entry.name, seen);
      }
      const problems = await Promise.all(
        [...byNode.values()].map(async ({ entry, commands: needed }) => {
          try {
            if (await rootWithoutPassword(ctx, nodeTarget(ctx, entry))) return undefined;
          } catch (error) {
            if (isClusterBotError(error, 'CANCELLED')) throw error;
            // A node that does not answer is the step's to handle (stopping k3s on a dead node is
            // skipped): this check only refuses what it knows will fail.
            return undefined;
          }
          const becomeProblem = await becomeProblemOn(ctx, entry.name, groupVaultFile(repo.hostGroup));
          if (becomeProblem === undefined) return undefined;
          const list = needed.map((command) => `\`${command.command}\` (${command.why})`).join(', ');
          return (
            `${list} cannot run as root on ${entry.name}: sudo for ${ctx.cluster.nodeSsh.user} there needs a password the bot does not hold, ` +
            `and the ops host's Ansible cannot become root there either (${becomeProblem}); ` +
            "fix the vault, or give the bot's login passwordless sudo for these commands"
          );
        }),
      );
      return problems.filter((problem): problem is string => problem !== undefined);
    },
  };
}

/** Why the ops host's Ansible cannot become root on `host`; undefined when it can. */
async function becomeProblemOn(ctx: StepContext, host: string, file: string): Promise<string | undefined> {
  if ((await readRepoText(ctx, file)) === undefined) return `${file} is missing: no become password`;
  return vaultProblem(ctx, host, file);
}
