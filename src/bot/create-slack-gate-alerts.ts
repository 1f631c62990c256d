import type { GateAlerts } from '../jobs/ports/job-reporting.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import type { SlackPoster } from './slack-poster.js';

/**
 * The scheduled verify's transitions and the suspended-Flux reminder, as posts in the alerts
 * channel. What a gate observed and why Flux stays suspended is remote text (a node's own Ready
 * message, a HelmRelease's): escaped, so it can neither ping the channel nor disguise a link.
 */
export function createSlackGateAlerts(poster: SlackPoster, alertsChannel: string): GateAlerts {
  return {
    async failing(cluster, gate, observed, repeat) {
      const prefix = repeat ? 'still failing' : 'failed';
      await poster.post({
        channel: alertsChannel,
        text: `🚨 ${cluster}: gate *${escapeMrkdwn(gate)}* ${prefix} (scheduled verify): ${escapeMrkdwn(observed)}`,
      });
    },
    async driftFound(cluster, gate, observed, repeat) {
      await poster.post({
        channel: alertsChannel,
        text: `🧭 ${cluster}: ${escapeMrkdwn(gate)} ${repeat ? 'still drifted' : 'drifted'} (scheduled drift watch): ${escapeMrkdwn(observed)}. \`/cluster drift ${cluster}\` shows every place.`,
      });
    },
    async driftCleared(cluster, gate) {
      await poster.post({
        channel: alertsChannel,
        text: `✅ ${cluster}: ${escapeMrkdwn(gate)} agrees again (scheduled drift watch)`,
      });
    },
    async fluxStillSuspended(cluster, since) {
      const at = new Date(since.at).toISOString().slice(0, 16).replace('T', ' ');
      await poster.post({
        channel: alertsChannel,
        text:
          `⏸ ${cluster}: Flux's HelmRelease kube-system/cilium is still suspended (job #${since.jobNumber} ${escapeMrkdwn(since.outcome ?? 'failed')} at ${at} UTC and left it so): ` +
          (since.reason === undefined
            ? `Flux does not reconcile Cilium. Once Cilium is sound: \`/cluster cilium ${cluster} --resume-flux\``
            : `Flux does not reconcile Cilium: ${escapeMrkdwn(since.reason)}`),
      });
    },
    async recovered(cluster, gate) {
      await poster.post({
        channel: alertsChannel,
        text: `✅ ${cluster}: gate *${escapeMrkdwn(gate)}* passes again (scheduled verify)`,
      });
    },
  };
}
