import type { SlackLabOptions } from './start-slack-lab.js';

/**
 * A formed dev whose Cilium Flux has adopted, where a new agent template crash-loops on k3s-dev-2:
 * a rollout halts at that agent. cilium.yml's own wait outlasts the bot's watch, which stops it.
 */
export const HALTING_ROLLOUT: SlackLabOptions = {
  sim: { scenario: { brokenAgentOn: 'k3s-dev-2', helmRelease: {} } },
  labVars: { lab_rollout_wait_seconds: 300 },
};
