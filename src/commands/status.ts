import { operatorsOnly } from './operators-only.js';
import { verbHandler } from './verb-handler.js';

/** `status [cluster]`: who holds each cluster, its line, its unfinished jobs, its last verify. */
export const status = verbHandler(
  operatorsOnly(async (words, { actor, service, world }) => {
    const cluster = words[0];
    if (words.length > 1 || (cluster !== undefined && !world.clusters[cluster])) {
      return { code: 'USAGE', verb: 'status', clusters: Object.keys(world.clusters) };
    }
    return service.status(actor, cluster);
  }),
  { help: ['`status [cluster]`: who holds each cluster, queued and running jobs, last verify'] },
);
