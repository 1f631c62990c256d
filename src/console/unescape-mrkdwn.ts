/**
 * For a terminal, which shows mrkdwn as typed: the characters Slack's rule escapes (`&`, `<`, `>`)
 * back as they were. The threads still arrive in mrkdwn (src/bot's thread reporter words them).
 */
export function unescapeMrkdwn(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}
