import { describeRefusal } from '../bot/describe-refusal.js';
import { escapeMrkdwn } from '../bot/escape-mrkdwn.js';
import type { JobPageUrl } from '../bot/job-page-url.js';
import { describeHomeCluster } from '../bot/render-home.js';
import type { HomeAnswer } from '../service/index.js';

/** The App Home's overview as the console's `home` prints it (mrkdwn, rendered for the terminal by the caller). */
export function describeHome(data: HomeAnswer, jobPageUrl: JobPageUrl): string {
  if ('code' in data) return describeRefusal(data);
  if (data.clusters.length === 0) return 'No clusters in the config.';
  return data.clusters
    .map(
      (cluster) =>
        `*${escapeMrkdwn(cluster.cluster)}*\n${describeHomeCluster(cluster, { jobPageUrl })}\nVerify now: \`/cluster verify ${escapeMrkdwn(cluster.cluster)}\``,
    )
    .join('\n\n');
}
