import type { Redis } from 'ioredis';
import { describeCommand } from '../lifecycle/command/lifecycle-command.js';
import { isMutating } from '../lifecycle/verbs/lifecycle-verbs.js';
import type { AuditEntry, AuditLog } from './audit-log.js';
import { ADMIT_LUA, type AdmissionVerdict, type CommandRateLimit } from './command-rate-limit.js';
import type { EnqueueRequest } from './create-job-queue.js';
import { RECENT_KEPT } from './job-record.js';
import { JOB_ID_PREFIX, jobIdOf } from './ports/job-id.js';
import type { RedisKeys } from './redis-keys.js';

/**
 * Admits a command and acts on it in one round trip (after ADMIT_LUA: KEYS[1], KEYS[2], ARGV[1..3]).
 * KEYS: 3 the job counter, 4 the recent jobs, 5 the audit stream, 6 the cluster's lease, 7 its line.
 * ARGV: 4 the job key's prefix, 5 the job id's, 6 the record's JSON without id and number,
 * 7 RECENT_KEPT, 8 '1' for a mutating command, 9 '1' to wait behind the lease's holder, 10 the
 * lease's ms, 11 the audit stream's cap, 12 the number of fields of an audit entry (n), then the
 * queued entry's n fields and the refused one's n.
 * A busy cluster is refused before a number is taken, so job numbers have no gaps. The record's key
 * follows from the number taken here, so it cannot be declared: like BullMQ's own scripts, the
 * script builds it from a declared key's prefix, which shares the hash tag (one slot on a Cluster).
 */
const RECORD_COMMAND = `${ADMIT_LUA}
local n = tonumber(ARGV[12])
local function audit(from, jobId)
  local fields = {}
  for i = from, from + n - 1, 2 do
    fields[#fields + 1] = ARGV[i]
    fields[#fields + 1] = ARGV[i] == 'jobId' and jobId or ARGV[i + 1]
  end
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', ARGV[11], '*', unpack(fields))
end
local holder = ARGV[8] == '1' and redis.call('GET', KEYS[6])
if holder and ARGV[9] ~= '1' then
  audit(13 + n, '')
  return {'busy', holder, redis.call('GET', ARGV[4] .. holder)}
end
local number = redis.call('INCR', KEYS[3])
local id = ARGV[5] .. number
local position = 0
if holder then position = redis.call('RPUSH', KEYS[7], id)
elseif ARGV[8] == '1' then redis.call('SET', KEYS[6], id, 'PX', ARGV[10]) end
redis.call('SET', ARGV[4] .. id, '{"id":"' .. id .. '","number":' .. number .. ',' .. string.sub(ARGV[6], 2))
redis.call('LPUSH', KEYS[4], id)
redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[7]) - 1)
audit(13, id)
return {'queued', number, position}
`;

/** An enqueue request with what the queue adds: when, and how long a mutating command's lease lasts. */
export interface CommandToRecord extends EnqueueRequest {
  readonly createdAt: number;
  readonly pageNonce: string;
  readonly folderTag: string;
  readonly leaseMs: number;
}

export type RecordedCommand =
  | { readonly kind: 'queued'; readonly id: string; readonly number: number; readonly position: number }
  | { readonly kind: 'busy'; readonly holderJobId: string; readonly holderRecord: string | null }
  | { readonly kind: Exclude<AdmissionVerdict, 'admitted'> };

/**
 * The bot's whole share of a command in one script: its admission, its number, a mutating
 * command's lease (or its place in line, or a BUSY refusal naming the holder), its record and
 * its audit entry. A reader sees all of it or none.
 */
export async function recordCommand(
  redis: Redis,
  keys: RedisKeys,
  deps: { readonly audit: AuditLog; readonly rateLimit: Pick<CommandRateLimit, 'scriptPart'> },
  request: CommandToRecord,
): Promise<RecordedCommand> {
  const rerun = request.rerunOf ? ` (re-run of #${request.rerunOf.number})` : '';
  const what = `${describeCommand(request.command)}${rerun}`;
  const entry = (action: 'command' | 'refused', text: string, jobId: string): AuditEntry => ({
    at: request.createdAt,
    who: request.requestedBy,
    action,
    what: text,
    cluster: request.command.cluster,
    jobId,
  });
  const queued = deps.audit.fieldsOf(entry('command', what, ''));
  const refused = deps.audit.fieldsOf(entry('refused', `${what}: busy`, ''));
  const { command, requestedBy, channel, createdAt, pageNonce, folderTag, rerunOf } = request;
  const admission = deps.rateLimit.scriptPart(request.admission);
  const reply = (await redis.eval(
    RECORD_COMMAND,
    7,
    ...admission.keys,
    keys.jobCounter,
    keys.recentJobs,
    keys.audit,
    keys.lease(command.cluster),
    keys.waiting(command.cluster),
    ...admission.args,
    // An undeclared key, legal on a Redis Cluster only because the prefix is a hash tag there (read-env.ts enforces it), as BullMQ relies on.
    keys.job(''),
    JOB_ID_PREFIX,
    JSON.stringify({ command, requestedBy, channel, createdAt, pageNonce, folderTag, rerunOf }),
    RECENT_KEPT,
    isMutating(command) ? '1' : '',
    request.queueIfBusy ? '1' : '',
    request.leaseMs,
    deps.audit.maxEntries,
    queued.length,
    ...queued,
    ...refused,
  )) as [string, ...unknown[]];
  switch (reply[0]) {
    case 'queued': {
      const [, number, position] = reply as [string, number, number];
      deps.audit.note(entry('command', what, jobIdOf(number)));
      return { kind: 'queued', id: jobIdOf(number), number, position };
    }
    case 'busy': {
      const [, holderJobId, holderRecord] = reply as [string, string, string | null];
      deps.audit.note(entry('refused', `${what}: busy`, ''));
      return { kind: 'busy', holderJobId, holderRecord };
    }
    default:
      return { kind: reply[0] as 'repeated' | 'limited' };
  }
}
