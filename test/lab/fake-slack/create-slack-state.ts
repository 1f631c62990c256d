import type {
  Block,
  CallRecord,
  EphemeralRecord,
  FileRecord,
  HomeViewRecord,
  MessageVersion,
  MessageWithHistory,
  ResponseUrlPost,
  SlackMessage,
  SocketAck,
} from './fake-slack-types.js';
import { normalizeBlocks } from './normalize-blocks.js';

export interface SlackIdentity {
  teamId: string;
  teamDomain: string;
  botUserId: string;
  botId: string;
  botName: string;
  appId: string;
}

interface StoredMessage {
  channel: string;
  ts: string;
  threadTs: string | undefined;
  versions: MessageVersion[];
  deleted: boolean;
  files: SlackMessage['files'];
  /** A thread reply also shown in the channel (reply_broadcast). */
  broadcast: boolean;
}

interface PendingUpload {
  id: string;
  filename: string;
  length: number;
  bytes: Buffer | undefined;
}

export interface ResponseUrlTarget {
  id: string;
  kind: 'slash_commands' | 'block_actions';
  channel: string;
  userId: string;
  /** The message holding the clicked button (block_actions only). */
  messageTs?: string;
  createdAt: number;
  uses: number;
}

export type SlackState = ReturnType<typeof createSlackState>;

/** Everything the fake remembers; the HTTP and WebSocket layers only translate into these calls. */
export function createSlackState(options: { identity: SlackIdentity; now: () => number; tsBase: number }) {
  const { identity, now, tsBase } = options;
  const stored = new Map<string, StoredMessage>();
  const calls: CallRecord[] = [];
  const ephemerals: EphemeralRecord[] = [];
  const files: FileRecord[] = [];
  const uploads = new Map<string, PendingUpload>();
  const responseUrls = new Map<string, ResponseUrlTarget>();
  const responsePosts: ResponseUrlPost[] = [];
  const acks: SocketAck[] = [];
  /** Every Home view published, oldest first; a user's current Home is their last. */
  const homeViews: HomeViewRecord[] = [];
  let tsSeq = 0;
  let idSeq = 0;

  const key = (channel: string, ts: string) => `${channel}/${ts}`;

  function nextTs(): string {
    tsSeq += 1;
    const micros = tsSeq * 100;
    return `${tsBase + Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  function newId(prefix = ''): string {
    idSeq += 1;
    return `${prefix}${idSeq.toString(36).toUpperCase().padStart(6, '0')}`;
  }

  function view(message: StoredMessage): SlackMessage {
    const current = message.versions[message.versions.length - 1]!;
    const result: SlackMessage = {
      type: 'message',
      channel: message.channel,
      ts: message.ts,
      text: current.text,
      user: identity.botUserId,
      bot_id: identity.botId,
      app_id: identity.appId,
      team: identity.teamId,
    };
    if (current.blocks) result.blocks = structuredClone(current.blocks);
    if (message.files) result.files = structuredClone(message.files);
    if (message.threadTs !== undefined) result.thread_ts = message.threadTs;
    if (message.broadcast) result.subtype = 'thread_broadcast';
    const replyCount = message.threadTs === undefined ? repliesOf(message.channel, message.ts).length : 0;
    if (replyCount > 0) {
      result.thread_ts = message.ts;
      result.reply_count = replyCount;
    }
    if (message.versions.length > 1) {
      result.edited = { user: identity.botUserId, ts: (current.at / 1000).toFixed(6) };
    }
    return result;
  }

  function live(channel: string): StoredMessage[] {
    return [...stored.values()].filter((m) => m.channel === channel && !m.deleted);
  }

  function repliesOf(channel: string, threadTs: string): StoredMessage[] {
    return live(channel).filter((m) => m.threadTs === threadTs);
  }

  /** Replying to a reply lands in the parent's thread, as in Slack. */
  function threadRoot(channel: string, threadTs: string | undefined): string | undefined {
    if (threadTs === undefined) return undefined;
    return stored.get(key(channel, threadTs))?.threadTs ?? threadTs;
  }

  return {
    identity,
    calls,
    ephemerals,
    files,
    uploads,
    responseUrls,
    responsePosts,
    acks,
    homeViews,
    nextTs,
    newId,
    normalize(blocks: unknown): Block[] | undefined {
      return normalizeBlocks(blocks, () => newId('b'));
    },
    post(input: {
      channel: string;
      text: string;
      blocks: Block[] | undefined;
      threadTs: string | undefined;
      via: string;
      files?: SlackMessage['files'];
      broadcast?: boolean;
    }): SlackMessage {
      const message: StoredMessage = {
        channel: input.channel,
        ts: nextTs(),
        threadTs: threadRoot(input.channel, input.threadTs),
        versions: [{ text: input.text, blocks: input.blocks, at: now(), via: input.via }],
        deleted: false,
        files: input.files,
        broadcast: input.broadcast === true,
      };
      stored.set(key(message.channel, message.ts), message);
      return view(message);
    },
    update(
      channel: string,
      ts: string,
      change: { text?: string; blocks?: Block[] },
      via: string,
    ): SlackMessage | undefined {
      const message = stored.get(key(channel, ts));
      if (!message || message.deleted) return undefined;
      const current = message.versions[message.versions.length - 1]!;
      message.versions.push({
        text: change.text ?? current.text,
        blocks: change.blocks ?? current.blocks,
        at: now(),
        via,
      });
      return view(message);
    },
    remove(channel: string, ts: string): boolean {
      const message = stored.get(key(channel, ts));
      if (!message || message.deleted) return false;
      message.deleted = true;
      return true;
    },
    /** Current version with its history; deleted messages are still found (deleted: true). */
    get(channel: string, ts: string): MessageWithHistory | undefined {
      const message = stored.get(key(channel, ts));
      if (!message) return undefined;
      return { ...view(message), deleted: message.deleted, history: structuredClone(message.versions) };
    },
    topLevel(channel: string): SlackMessage[] {
      return live(channel)
        .filter((m) => m.threadTs === undefined)
        .map(view);
    },
    replies(channel: string, threadTs: string): SlackMessage[] {
      return repliesOf(channel, threadTs).map(view);
    },
    /** Roots and replies, oldest first: what a person scrolling the channel could click. */
    everything(channel: string): SlackMessage[] {
      return live(channel).map(view);
    },
    reset(): void {
      stored.clear();
      calls.length = 0;
      ephemerals.length = 0;
      files.length = 0;
      uploads.clear();
      responseUrls.clear();
      responsePosts.length = 0;
      acks.length = 0;
      homeViews.length = 0;
    },
  };
}
