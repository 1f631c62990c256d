import type { WebClient } from '@slack/web-api';
import type { SlackPacer } from '../delivery/delivery.js';
import type { Redact } from '../log/create-redactor.js';
import { redactValue } from '../log/redact-value.js';
import type { Metrics } from '../metrics/create-metrics.js';
import type { HomeView } from './render-home.js';

/** views.publish behind a narrow interface: the App Home of one person. */
export interface HomePublisher {
  publish(userId: string, view: HomeView): Promise<void>;
}

/** views.publish over the Web API client, paced like every other call, every string redacted. */
export function createHomePublisher(
  client: WebClient,
  redact: Redact,
  pacer: SlackPacer,
  metrics?: Metrics,
): HomePublisher {
  return {
    async publish(userId, view) {
      metrics?.slackCalls.inc({ method: 'views.publish' });
      await pacer.take('views.publish');
      await client.views.publish({ user_id: userId, view: redactValue(view, redact) as never });
    },
  };
}
