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
  | 'outcome';

export interface AuditEntry {
  readonly at: number;
  readonly who: string;
  readonly action: AuditAction;
  readonly what: string;
  readonly jobId?: string | undefined;
  /** For a click: the step and the approval (request) it answered. */
  readonly stepId?: string | undefined;
  readonly approvalId?: string | undefined;
}

const MAX_ENTRIES = 10_000;

const fieldsOf = (entry: AuditEntry): string[] => [
  'at',
  String(entry.at),
  'who',
  entry.who,
  'action',
  entry.action,
  'what',
  entry.what,
  'jobId',
  entry.jobId ?? '',
  'stepId',
  entry.stepId ?? '',
  'approvalId',
  entry.approvalId ?? '',
];

/**
 * Who did what, when, to which job: a capped Redis stream, mirrored into the JSON logs with the
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
    async recent(count: number): Promise<AuditEntry[]> {
      const rows = await redis.xrevrange(keys.audit, '+', '-', 'COUNT', count);
      return rows.map(([, fields]) => {
        const value = (name: string) => fields[fields.indexOf(name) + 1] ?? '';
        return {
          at: Number(value('at')),
          who: value('who'),
          action: value('action') as AuditAction,
          what: value('what'),
          jobId: value('jobId') || undefined,
          stepId: value('stepId') || undefined,
          approvalId: value('approvalId') || undefined,
        };
      });
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
