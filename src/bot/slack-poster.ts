import type { Message, MessagePoster } from '../conversation/message-poster.js';

/** The Slack calls the bot makes, behind one narrow interface (WebClient in production, anything in tests). */
export type SlackMessage = Message;
export type SlackPoster = MessagePoster;

/**
 * Whether Slack answered a call with a definitive refusal (ok: false, e.g. channel_not_found):
 * trying again changes nothing. A timeout, a 5xx or a rate limit after the retries is not one.
 */
export function isSlackRefusal(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'slack_webapi_platform_error';
}
