import { ClusterBotError } from '../../errors.js';

export interface TofuResourceChange {
  readonly address: string;
  /** OpenTofu's actions: ["no-op"], ["create"], ["update"], ["delete"], ["delete","create"], ... */
  readonly actions: readonly string[];
}

/** `resource_changes` of `tofu show -json <plan>`: the machine-readable truth of a saved plan. */
export function parseTofuPlanJson(text: string): TofuResourceChange[] {
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (cause) {
    throw new ClusterBotError('COMMAND_FAILED', 'tofu show -json printed no JSON plan', { cause });
  }
  const changes = (plan as { resource_changes?: unknown }).resource_changes ?? [];
  if (!Array.isArray(changes)) {
    throw new ClusterBotError('COMMAND_FAILED', 'tofu show -json: resource_changes is not a list');
  }
  return changes.map((change: { address?: unknown; change?: { actions?: unknown } }) => {
    const actions = change.change?.actions;
    if (typeof change.address !== 'string' || !Array.isArray(actions)) {
      throw new ClusterBotError(
        'COMMAND_FAILED',
        'tofu show -json: a resource change without address or actions',
      );
    }
    return { address: change.address, actions: actions.map(String) };
  });
}

/** Why a plan is not exactly "replace this one resource": empty when it is. */
export function replaceOnlyProblems(changes: readonly TofuResourceChange[], resource: string): string[] {
  const acting = changes.filter((change) => !(change.actions.length === 1 && change.actions[0] === 'no-op'));
  const problems = acting
    .filter((change) => change.address !== resource)
    .map((change) => `${change.address} (${change.actions.join(', ')})`);
  const own = acting.find((change) => change.address === resource);
  const replaced = own?.actions.includes('delete') === true && own.actions.includes('create');
  if (!replaced)
    problems.unshift(
      `${resource} is ${own ? `planned as ${own.actions.join(', ')}` : 'not in the plan'}, not replaced`,
    );
  return problems;
}

/** One line per acting change, as the approval shows them. */
export function describeChanges(changes: readonly TofuResourceChange[]): Record<string, string[]> {
  return Object.fromEntries(
    changes
      .filter((change) => !(change.actions.length === 1 && change.actions[0] === 'no-op'))
      .map((change) => [change.address, [...change.actions]]),
  );
}
