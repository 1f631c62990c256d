import type { ChainableCommander, Redis } from 'ioredis';
import type { Logger } from '../log/create-logger.js';
import type { RedisKeys } from './redis-keys.js';

export type AuditAction =
  | 'command'
  | 'refused'
  | 'approve'
  | 'reject'
  | 'click-refused'
  | 'cancel'
  /** A worker began running a mutating job, holding its cluster's lease (again, when it resumes). */
  | 'start'
  /** A rebuilt node's accepted host key kept as the bot's pin for it (who: its approvers). */
  | 'pin-host-key'
  | 'outcome';

export interface AuditEntry {
  readonly at: number;
  readonly who: string;
  readonly action: AuditAction;
  readonly what: string;
  /** The cluster it concerns; absent for what concerns none (a refusal before any cluster was named, a forged button). */
  readonly cluster?: string | undefined;
  readonly jobId?: string | undefined;
  /** For a click: the step and the approval (request) it answered. */
  readonly stepId?: string | undefined;
  /** The step's number on the job's board ("6. cilium.yml"), which people read; the id is the checkpoints'. */
  readonly stepNumber?: number | undefined;
  readonly approvalId?: string | undefined;
  /** For a click: where its button was, the job's thread or the clicker's App Home. */
  readonly via?: 'thread' | 'app-home' | undefined;
}

const MAX_ENTRIES = 10_000;
/** Entries read per round trip while a filtered read looks back. */
const PAGE = 500;

const fieldsOf = (entry: AuditEntry): string[] => [
  'at',
  String(entry.at),
  'who',
  entry.who,
  'action',
  entry.action,
  'what',
  entry.what,
  'cluster',
  entry.cluster ?? '',
  'jobId',
  entry.jobId ?? '',
  'stepId',
  entry.stepId ?? '',
  'stepNumber',
  entry.stepNumber === undefined ? '' : String(entry.stepNumber),
  'approvalId',
  entry.approvalId ?? '',
  'via',
  entry.via ?? '',
];

function entryOf(fields: readonly string[]): AuditEntry {
  // Names at even places only: a value may spell a field's name (what: 'cluster').
  const byName = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) byName.set(fields[i]!, fields[i + 1]!);
  const value = (name: string) => byName.get(name) ?? '';
  return {
    at: Number(value('at')),
    who: value('who'),
    action: value('action') as AuditAction,
    what: value('what'),
    cluster: value('cluster') || undefined,
    jobId: value('jobId') || undefined,
    stepId: value('stepId') || undefined,
    stepNumber: value('stepNumber') ? Number(value('stepNumber')) : undefined,
    approvalId: value('approvalId') || undefined,
    via: viaOf(value('via')),
  };
}

/**
 * Who did what, when, on which cluster, to which job: a capped Redis stream, mirrored into the JSON logs with the
 * same fields so either can be searched.
 */
export function createAuditLog(redis: Redis, keys: RedisKeys, logger: Logger) {
  const note = (entry: AuditEntry) =>
    logger.info({ audit: true, ...entry }, `audit: ${entry.action} ${entry.what}`);
  return {
    async record(entry: AuditEntry): Promise<void> {
      note(entry);
      await redis.xadd(keys.audit, 'MAXLEN', '~', MAX_ENTRIES, '*', ...fieldsOf(entry));
    },
    /** The entry queued on the caller's transaction, so it lands with what it tells. */
    queue(multi: ChainableCommander, entry: AuditEntry): void {
      note(entry);
      multi.xadd(keys.audit, 'MAXLEN', '~', MAX_ENTRIES, '*', ...fieldsOf(entry));
    },
    /** The log's mirror of an entry a script wrote (with `fieldsOf` and `maxEntries`). */
    note,
    fieldsOf,
    maxEntries: MAX_ENTRIES,
    /**
     * The newest `count` entries that `include` keeps (all by default), newest first. A filtered
     * read pages back through the stream until it has them or the stream ends: it is capped.
     */
    async recent(count: number, include: (entry: AuditEntry) => boolean = () => true): Promise<AuditEntry[]> {
      const found: AuditEntry[] = [];
      let end = '+';
      while (found.length < count) {
        const rows = await redis.xrevrange(keys.audit, end, '-', 'COUNT', Math.max(count, PAGE));
        for (const [, fields] of rows) {
          const entry = entryOf(fields);
          if (include(entry) && found.length < count) found.push(entry);
        }
        if (rows.length < Math.max(count, PAGE)) break;
        end = `(${rows.at(-1)![0]}`;
      }
      return found;
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

function viaOf(value: string): AuditEntry['via'] {
  return value === 'thread' || value === 'app-home' ? value : undefined;
}
