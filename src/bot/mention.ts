/** A Slack user (U…/W…) or user group (S…) id as the mention that notifies them. */
export function mention(id: string): string {
  return id.startsWith('S') ? `<!subteam^${id}>` : `<@${id}>`;
}
