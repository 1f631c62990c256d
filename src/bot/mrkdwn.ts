import type { Marks } from '../wording/marks.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { pageLinkMrkdwn } from './job-page-url.js';
import { mention } from './mention.js';

/** The wording's marks in Slack mrkdwn: what others wrote escaped, so it cannot post a link or a ping. */
export const MRKDWN: Marks = {
  text: escapeMrkdwn,
  bold: (marked) => `*${marked}*`,
  code: (marked) => `\`${marked}\``,
  block: (raw) => `\`\`\`${escapeMrkdwn(raw)}\`\`\``,
  user: (id) => `<@${id}>`,
  mention,
  channel: (id) => `<#${id}>`,
  link: pageLinkMrkdwn,
  date: (at, utc) => `<!date^${Math.floor(at / 1000)}^{date_short_pretty} {time}|${utc}>`,
};
