import type { WorldConfig } from '../config/world-config.js';

/**
 * Where a "Verify now" click from the App Home runs, as if typed there: the cluster's first command
 * channel, else the global one, else (any channel accepted) the alerts channel. Its job thread goes there.
 */
export function verifyChannel(world: WorldConfig, cluster: string): string {
  return (
    world.clusters[cluster]?.commandChannels[0] ?? world.slack.commandChannels[0] ?? world.slack.alertsChannel
  );
}

/** The channel the App Home reads "from": the Home has none, and the rights are those of the command channel. */
export function homeChannel(world: WorldConfig): string {
  return world.slack.commandChannels[0] ?? world.slack.alertsChannel;
}
