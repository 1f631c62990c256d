import { ClusterBotError } from '../../errors.js';
import { ansibleHostVar } from '../ansible/ansible-host-var.js';
import { readClusterVar } from '../ansible/read-cluster-var.js';
import type { StepContext } from '../plan/step.js';
import { parseK3sVersion } from './k3s-version.js';
import { upgradeOrder } from './upgrade-order.js';
import { type UpgradeVersionVerdict, upgradeVersionVerdict } from './upgrade-version-rule.js';

/** The role k3s.yml installs k3s with: its defaults are the first layer of `k3s_version`. */
const K3S_ROLE = 'k3s_server';

/** Where a setting the bot's own reading of the repo does not see came from. */
const INVENTORY_SOURCES = 'the inventory: host_vars, hosts.ini or a child group, as Ansible resolves it';

/** What an upgrade would do now: the repo's target, and each server's running version against it. */
export interface UpgradeReading extends UpgradeVersionVerdict {
  /** `k3s_version` as the play resolves it for every server at the checkout's HEAD. */
  readonly target: string;
  /** The repo file whose setting won. */
  readonly file: string;
}

/**
 * Reads `k3s_version` for each server as k3s.yml will resolve it: Ansible itself answers from the
 * inventory (host_vars, hosts.ini's inline vars, every group and child group) with the cluster's
 * extra vars; where nothing there sets it, the k3s role's defaults as the bot reads them. Every
 * server must resolve to one target. Then each server's `kubeletVersion`, in upgrade order, judged
 * by the skew rule. A repo that sets no `k3s_version` is refused: the bot never guesses a target.
 */
export async function readUpgrade(ctx: StepContext): Promise<UpgradeReading> {
  const servers = upgradeOrder(ctx.cluster).map((server) => server.name);
  const [setting, resolved, live] = await Promise.all([
    readClusterVar(ctx, 'k3s_version', { role: K3S_ROLE }),
    ansibleHostVar(ctx, servers, 'k3s_version', ctx.cluster.extraVars),
    ctx.kube.listNodes(),
  ]);
  const refuse = (message: string): never => {
    throw new ClusterBotError('PRECONDITION_FAILED', message);
  };
  const unanswered = servers.filter((server) => !resolved.has(server));
  if (unanswered.length > 0)
    refuse(
      `Ansible finds no ${unanswered.join(', ')} in inventory/hosts.ini: what k3s_version k3s.yml would install there is unknown`,
    );
  const perServer = servers.map((server) => ({ server, value: resolved.get(server) ?? setting?.value }));
  const targets = new Set(perServer.map(({ value }) => value));
  if (targets.size > 1)
    refuse(
      `k3s_version does not resolve to one target for ${ctx.cluster.name}'s servers: ` +
        `${perServer.map(({ server, value }) => `${server} ${value ?? 'unset'}`).join(', ')}; ` +
        'k3s.yml would install each its own: set it in one place for the whole cluster',
    );
  const target = perServer[0]?.value ?? setting?.value;
  if (target === undefined) {
    return refuse(
      `k3s_version is set nowhere for ${ctx.cluster.name} (roles/${K3S_ROLE}/defaults, group_vars): no target version to upgrade to`,
    );
  }
  const file = setting?.value === target ? setting.file : INVENTORY_SOURCES;
  if (!parseK3sVersion(target)) {
    // `v1.36.4` alone names no k3s release (they are v1.36.4+k3s1, +k3s2…): the bot does not pick one.
    const problem = `k3s_version in ${file} is ${JSON.stringify(target)}, not a k3s release such as v1.36.4+k3s1 (the +k3sN is part of the name)`;
    return { target, file, problems: [problem], upgrades: [] };
  }
  const running = servers.map((server) => ({
    server,
    version: live.find((node) => node.name === server)?.kubeletVersion,
  }));
  return { target, file, ...upgradeVersionVerdict(target, running) };
}
