/** Resolves whether a Slack user is in a list of users and user groups, asking Slack for group members. */
export type GroupMembers = (groupId: string) => Promise<readonly string[]>;

export async function isMember(
  userId: string,
  allowed: readonly string[],
  members: GroupMembers,
): Promise<boolean> {
  if (allowed.includes(userId)) return true;
  for (const id of allowed.filter((entry) => entry.startsWith('S'))) {
    if ((await members(id)).includes(userId)) return true;
  }
  return false;
}
