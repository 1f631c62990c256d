/**
 * Remote and user text (playbook output, node messages, command words, names from the config) made
 * inert inside Slack mrkdwn: `<!channel>` or `<http://evil|click here>` shows as typed instead of
 * pinging everyone or disguising a link. Slack's own rule: escape exactly `&`, `<` and `>`. The
 * bot's intentional mentions and links are added around the escaped text, never through it.
 */
export function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
