import type { AnsibleEvent, HostResultStatus } from './ansible-event.js';
import { extractResultMessage } from './extract-result-message.js';
import type { HostLine } from './parse-host-line.js';
import { type HostResult, type ParseRun, type ParserMode, SCANNING } from './parser-state.js';

/** Emits a result; a failure also joins the (bounded) failures. */
export function recordResult(run: ParseRun, events: AnsibleEvent[], event: HostResult): void {
  events.push(event);
  if (event.status !== 'failed' && event.status !== 'unreachable') return;
  run.failures.push({
    host: event.host,
    task: event.task,
    msg: event.msg ?? '',
    kind: event.status,
    ...(event.item === undefined ? {} : { item: event.item }),
  });
  if (run.failures.length > run.keptFailures) run.failures = run.failures.slice(-run.keptFailures);
}

/** Turns a host line and its body into a result; a failure is held, the rest are emitted. */
export function concludeHostLine(
  run: ParseRun,
  events: AnsibleEvent[],
  line: HostLine,
  bodyText: string | null,
): ParserMode {
  const status: HostResultStatus = line.unreachable
    ? 'unreachable'
    : line.keyword === 'fatal' || line.keyword === 'failed'
      ? 'failed'
      : line.keyword;
  const failed = status === 'failed' || status === 'unreachable';
  const msg = failed && bodyText ? extractResultMessage(bodyText) : undefined;
  const event: HostResult = {
    type: 'host-result',
    status,
    host: line.host,
    task: run.taskName ?? '',
    ...(msg === undefined ? {} : { msg }),
    ...(line.item === undefined ? {} : { item: line.item }),
    ...(run.diff.length > 0 ? { diff: run.diff } : {}),
  };
  run.diff = [];
  // `...ignoring` follows a failure it forgives, so a failure waits one line before it counts.
  if (failed) return { name: 'held-failure', failure: event };
  events.push(event);
  return SCANNING;
}

/** A loop's `...ignoring` comes after all its items: it forgives the last failure of this task. */
export function forgiveLastFailure(run: ParseRun, events: AnsibleEvent[]): void {
  const last = run.failures.at(-1);
  if (!last || last.task !== (run.taskName ?? '')) return;
  run.failures = run.failures.slice(0, -1);
  events.push({
    type: 'host-result',
    status: 'fatal-ignored',
    host: last.host,
    task: last.task,
    msg: last.msg,
  });
}
