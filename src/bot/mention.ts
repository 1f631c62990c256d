/** A Slack user (U…/W…) or user group (S…) id as the mention that notifies them. */
export function mention(id: string): string {
  return isGroup(id) ? `<!subteam^${id}>` : `<@${id}>`;
}

/** A user group's id (S…): it is mentioned, never messaged directly. */
export function isGroup(id: string): boolean {
  return id.startsWith('S');
}
