import { SLACK_USER } from '../../config/world-schema.js';
import type { Precondition } from '../preconditions/precondition.js';

/**
 * Enough approvers are listed to approve the step: a group may hold any number, so only a list of
 * users alone can be short.
 */
export function approversConfigured(needed: number): Precondition {
  return {
    label: 'approvers',
    async check({ cluster }) {
      const onlyUsers = cluster.approvers.every((id) => SLACK_USER.test(id));
      if (!onlyUsers || cluster.approvers.length >= needed) return [];
      return [
        `${cluster.name} lists ${cluster.approvers.length} approver${cluster.approvers.length === 1 ? '' : 's'} and a restore needs ${needed} distinct ones: add them to the cluster's approvers`,
      ];
    },
  };
}
