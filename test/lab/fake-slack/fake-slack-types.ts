/** A Block Kit block as Slack stores it: opaque here, inspected only where buttons are looked for. */
export type Block = Record<string, unknown>;

export interface MessageVersion {
  text: string;
  blocks: Block[] | undefined;
  at: number;
  /** What produced this version: 'chat.postMessage', 'chat.update', 'response_url', 'files.completeUploadExternal'. */
  via: string;
}

/** A message as conversations.replies / block_actions payloads show it (current version). */
export interface SlackMessage {
  type: 'message';
  channel: string;
  ts: string;
  thread_ts?: string;
  /** `thread_broadcast`: a thread reply Slack also shows in the channel (posted with reply_broadcast). */
  subtype?: 'thread_broadcast';
  text: string;
  blocks?: Block[];
  user: string;
  bot_id: string;
  app_id: string;
  team: string;
  files?: Array<{ id: string; name: string; title: string }>;
  reply_count?: number;
  edited?: { user: string; ts: string };
}

export interface MessageWithHistory extends SlackMessage {
  deleted: boolean;
  /** Every version in order, the first being the post and the last the current one. */
  history: MessageVersion[];
}

export interface CallRecord {
  /** Web API method, or 'file_upload' / 'response_url' for the two non-API endpoints. */
  method: string;
  args: Record<string, unknown>;
  at: number;
  status: number;
  rateLimited: boolean;
  ok: boolean;
  error?: string;
}

export interface EphemeralRecord {
  channel: string;
  user: string;
  text: string;
  blocks?: Block[];
  thread_ts?: string;
  message_ts: string;
  via: 'chat.postEphemeral' | 'response_url';
  at: number;
}

export interface FileRecord {
  id: string;
  title: string;
  filename: string;
  /** The uploaded bytes decoded as UTF-8 (the bot uploads text logs). */
  content: string;
  bytes: Buffer;
  channel?: string;
  thread_ts?: string;
  initial_comment?: string;
  at: number;
}

export type ResponseUrlOutcome = 'ephemeral' | 'in_channel' | 'replaced' | 'deleted' | 'rejected';

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
  at: number;
  status: number;
  outcome: ResponseUrlOutcome;
  error?: string;
}

/** One views.publish of a user's Home tab, as Slack stored it (blocks with their ids). */
export interface HomeViewRecord {
  id: string;
  user: string;
  blocks: Block[];
  at: number;
}

export interface SocketAck {
  envelope_id: string;
  payload?: Record<string, unknown>;
  at: number;
}
