import type { GateAlerts } from '../jobs/ports/job-reporting.js';
import type { SlackPoster } from './slack-poster.js';

/** The scheduled verify's transitions, as posts in the alerts channel. */
export function createSlackGateAlerts(poster: SlackPoster, alertsChannel: string): GateAlerts {
  return {
    async failing(cluster, gate, observed, repeat) {
      const prefix = repeat ? 'still failing' : 'failed';
      await poster.post({
        channel: alertsChannel,
        text: `🚨 ${cluster}: gate *${gate}* ${prefix} (scheduled verify): ${observed}`,
      });
    },
    async recovered(cluster, gate) {
      await poster.post({
        channel: alertsChannel,
        text: `✅ ${cluster}: gate *${gate}* passes again (scheduled verify)`,
      });
    },
  };
}
