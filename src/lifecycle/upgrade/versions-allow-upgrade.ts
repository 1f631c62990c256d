import { isClusterBotError } from '../../errors.js';
import type { Precondition } from '../preconditions/precondition.js';
import { readUpgrade } from './read-upgrade.js';

/** Kubernetes' skew rule between each server's running version and the repo's `k3s_version`. */
export const versionsAllowUpgrade: Precondition = {
  label: 'k3s versions',
  async check(ctx) {
    try {
      return [...(await readUpgrade(ctx)).problems];
    } catch (error) {
      if (!isClusterBotError(error) || error.code === 'CANCELLED') throw error;
      return [error.message];
    }
  },
};
