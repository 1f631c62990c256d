export interface FakeUser {
  id: string;
  name: string;
  real_name: string;
}

export interface DirectoryOptions {
  /** Known channels; when given, any other channel id answers channel_not_found. */
  channels?: Array<string | { id: string; name: string }>;
  /** Known users; when given, any other user id answers user_not_found. */
  users?: Record<string, { name: string; realName?: string }>;
  /** User group id → member user ids, for usergroups.users.list. */
  userGroups?: Record<string, string[]>;
}

/** The bot's DM channel with a user, as Slack answers a chat.postMessage to the user's id. */
export function directChannelOf(userId: string): string {
  return `D0${userId.slice(2)}`;
}

const USER_ID = /^[UW][A-Z0-9]+$/;

export type Directory = ReturnType<typeof createDirectory>;

/** Who and what exists in the fake workspace. Without lists, every id exists with a derived name. */
export function createDirectory(options: DirectoryOptions) {
  const channels = options.channels?.map((c) =>
    typeof c === 'string' ? { id: c, name: c.toLowerCase() } : c,
  );
  return {
    /** A user id posted to as a channel: their DM with the bot (undefined for anything else). */
    directChannel(id: string): string | undefined {
      return USER_ID.test(id) && this.user(id) ? directChannelOf(id) : undefined;
    },
    channelKnown(id: string): boolean {
      return channels === undefined || channels.some((c) => c.id === id);
    },
    channelName(id: string): string {
      return channels?.find((c) => c.id === id)?.name ?? id.toLowerCase();
    },
    user(id: string): FakeUser | undefined {
      if (options.users === undefined) return { id, name: id.toLowerCase(), real_name: id };
      const user = options.users[id];
      return user && { id, name: user.name, real_name: user.realName ?? user.name };
    },
    userGroup(id: string): string[] | undefined {
      return options.userGroups?.[id];
    },
  };
}
