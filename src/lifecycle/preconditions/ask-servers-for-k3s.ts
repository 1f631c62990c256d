import { isClusterBotError } from '../../errors.js';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { nodeTarget } from '../targets.js';

/**
 * What k3s leaves on a server until k3s-uninstall.sh or a wipe removes both: its config folder (the
 * k3s role writes config.yaml there, k3s its kubeconfig) and its data dir (etcd under server/db).
 * Their parents are world-readable, so `test -e` needs no root: a prod login without sudo asks too.
 */
export const K3S_PATHS = ['/etc/rancher/k3s', '/var/lib/rancher/k3s'] as const;

export interface Unanswered {
  readonly server: string;
  readonly why: string;
}

/** Each server asked over SSH whether k3s is installed there, by its answer. */
export interface ServerAnswers {
  readonly withK3s: readonly string[];
  readonly withoutK3s: readonly string[];
  readonly unanswered: readonly Unanswered[];
}

const TEST_ARGV = ['test', '-e', K3S_PATHS[0], '-o', '-e', K3S_PATHS[1]];

/** Asks every server at once; one the config gives no address or host key for cannot be asked. */
export async function askServersForK3s(ctx: StepContext, servers: readonly string[]): Promise<ServerAnswers> {
  const answers = await Promise.all(servers.map((server) => askServer(ctx, server)));
  const named = (answer: Answer) => servers.filter((_, index) => answers[index] === answer);
  return {
    withK3s: named('k3s'),
    withoutK3s: named('none'),
    unanswered: answers.flatMap((answer, index) =>
      typeof answer === 'string' ? [] : [{ server: servers[index]!, why: answer.why }],
    ),
  };
}

type Answer = 'k3s' | 'none' | { readonly why: string };

async function askServer(ctx: StepContext, server: string): Promise<Answer> {
  const node = ctx.cluster.nodes.find((entry) => entry.name === server);
  if (!node) {
    return {
      why: `it is not in the config (clusters.${ctx.cluster.name}.nodes): no address or host key to ask it with`,
    };
  }
  try {
    const { exitCode, stderr } = await captureRemote(ctx, nodeTarget(ctx, node), TEST_ARGV);
    // test exits 0 (true), 1 (false) or above 1 (it could not tell).
    if (exitCode === 0) return 'k3s';
    if (exitCode === 1) return 'none';
    return { why: `${TEST_ARGV.join(' ')} exited ${exitCode}${stderr ? `: ${stderr}` : ''}` };
  } catch (error) {
    if (isClusterBotError(error, 'CANCELLED')) throw error;
    return { why: (error as Error).message };
  }
}
