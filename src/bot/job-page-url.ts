/** A job page link in mrkdwn: the URL's `&` escaped as Slack wants inside <…> (it holds no `<`, `>` or `|`). */
export function pageLinkMrkdwn(url: string, label: string): string {
  return `<${url.replaceAll('&', '&amp;')}|${label}>`;
}
