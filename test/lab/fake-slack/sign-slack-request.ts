import { createHmac } from 'node:crypto';

/** Slack's v0 signature: HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the signing secret, hex. */
export function signSlackRequest(input: { signingSecret: string; timestamp: number; body: string }): string {
  const digest = createHmac('sha256', input.signingSecret)
    .update(`v0:${input.timestamp}:${input.body}`)
    .digest('hex');
  return `v0=${digest}`;
}
