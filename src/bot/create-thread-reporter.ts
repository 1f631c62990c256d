import type { Delivery } from '../delivery/delivery.js';
import type { BoardStep, JobThread } from '../jobs/ports/job-thread.js';
import { describeEvent } from '../lifecycle/describe-event.js';
import type { LifecycleEvent, Reporter } from '../lifecycle/ports/reporter.js';
import { truncate } from '../wording/truncate.js';
import { ciliumRollbackOffer } from './cilium-rollback-offer.js';
import { escapeMrkdwn } from './escape-mrkdwn.js';
import { rerunOffer } from './rerun-offer.js';
import { createLiveUpdates } from './thread/create-live-updates.js';
import type { ThreadOp } from './thread/thread-op.js';
import { noteText, outcomeText, stepFinishedText } from './thread/thread-texts.js';

export interface ThreadReporterDeps {
  /** Where the thread's messages wait for Slack (src/delivery): sent in the background, by any process. */
  readonly delivery: Delivery;
  readonly thread: JobThread;
  /** Appends to the job's full log (uploaded at the end). */
  appendLog(line: string): void | Promise<void>;
  /** Minimum time between two live updates (board or output tail) of this job's messages. */
  readonly updateIntervalMs?: number;
}

/**
 * Events after which the thread is saved (with the messages they queue, in one write): whether
 * the root message was queued and every step's end state are what a resumed job needs. Progress,
 * notes and starts are re-emitted or harmless to lose, and saving them would cost a write each.
 */
const SAVED_AFTER: ReadonlySet<LifecycleEvent['type']> = new Set([
  'plan-started',
  'step-waiting',
  'step-finished',
  'plan-finished',
]);

/**
 * Renders lifecycle events into a job's Slack thread: the root message is the status board,
 * replies carry step results, notes and alerts, and one reply per step holds a live tail of its
 * output. The engine never waits for Slack: each message (thread/thread-op.ts) is appended to the
 * job's outbox (src/delivery) and sent from there in the background (create-thread-op-sender.ts);
 * live edits are coalesced (create-live-updates.ts). `flush()` resolves once everything is in the
 * outbox, `delivered()` once Slack has taken it.
 */
// Long only as a whole: small parts (live updates, renderer) wired around one thread state.
export function createThreadReporter(deps: ThreadReporterDeps): Reporter & {
  flush(): Promise<void>;
  delivered(): Promise<void>;
  notice(mrkdwn: string): Promise<void>;
} {
  const { thread } = deps;
  const { channel } = thread;
  const { delivery } = deps;
  const state = () => ({ ...thread });
  // This run's own writer, held as long as the reporter: a run taken over cannot displace its
  // successor's appends. Appended at once, not after the previous append, so a step's thread
  // state leaves with its checkpoint (the engine hands both over in one tick).
  const appends = delivery.thread(thread.jobId);
  const queue = (ops: readonly ThreadOp[], save: boolean) => {
    if (ops.length === 0 && !save) return;
    appends.append(
      ops.map((op) => JSON.stringify(op)),
      save ? state : undefined,
    );
  };
  const live = createLiveUpdates(
    {
      board: () => queue([{ kind: 'board', channel, board: thread.board }], false),
      tail: (stepId, lines) =>
        queue(
          [
            {
              kind: 'tail',
              channel,
              stepId,
              text: `\`\`\`${escapeMrkdwn(truncate(lines.join('\n'), 2_800))}\`\`\``,
            },
          ],
          false,
        ),
    },
    deps.updateIntervalMs ?? 2_000,
  );
  // A reply before the thread has its root message (a cancel noticed before the plan started)
  // follows the root instead of being lost.
  const early: ThreadOp[] = [];
  const reply = (text: string): ThreadOp[] => {
    const op: ThreadOp = { kind: 'reply', channel, text };
    if (thread.opened) return [op];
    early.push(op);
    return [];
  };
  const setStep = (stepId: string, patch: Partial<BoardStep>) => {
    thread.board = {
      ...thread.board,
      steps: thread.board.steps.map((step) => (step.id === stepId ? { ...step, ...patch } : step)),
    };
    live.boardChanged();
  };
  const render = createEventRenderer({ thread, live, reply, setStep, early });

  const flush = async () => {
    live.flush();
    await appends.appended();
  };
  return {
    flush,
    async delivered() {
      await flush();
      await delivery.delivered(thread.jobId);
    },
    /** A reply the bot words itself (its mentions and links stay live): never remote text. */
    async notice(mrkdwn) {
      await deps.appendLog(`# ${mrkdwn}`);
      queue(reply(mrkdwn), false);
    },
    async output(stepId, line) {
      await deps.appendLog(line);
      live.line(stepId, line);
    },
    async emit(event: LifecycleEvent) {
      await deps.appendLog(`# ${describeEvent(event)}`);
      queue(render(event), SAVED_AFTER.has(event.type));
    },
  };
}

interface EventRendererDeps {
  readonly thread: JobThread;
  readonly live: ReturnType<typeof createLiveUpdates>;
  /** The reply, or nothing while it waits for the root message. */
  reply(text: string): ThreadOp[];
  setStep(stepId: string, patch: Partial<BoardStep>): void;
  /** The replies that came before the root message, sent right after it. */
  readonly early: ThreadOp[];
}

/** What each lifecycle event changes in the thread (the board) and the messages it queues. */
function createEventRenderer(deps: EventRendererDeps) {
  const { thread, live, reply, setStep, early } = deps;
  const { channel } = thread;
  return (event: LifecycleEvent): ThreadOp[] => {
    switch (event.type) {
      case 'plan-started':
        if (thread.board.steps.length === 0) {
          thread.board = {
            ...thread.board,
            steps: event.steps.map((step) => ({ ...step, status: 'pending' })),
          };
        }
        if (!thread.opened) {
          thread.opened = true;
          return [{ kind: 'root', channel, board: thread.board }, ...early.splice(0)];
        }
        if (event.resumed) live.boardChanged();
        return [];
      case 'step-started':
        setStep(event.stepId, { status: 'running', detail: undefined });
        return [];
      case 'step-progress':
        setStep(event.stepId, { detail: event.text });
        if (event.agent)
          thread.agentsMoved = thread.agentsMoved === true || event.agent.from !== event.agent.to;
        return [];
      case 'step-waiting':
        setStep(event.stepId, { status: 'waiting' });
        return [];
      case 'step-finished': {
        setStep(event.stepId, { status: event.status, durationMs: event.durationMs, detail: event.summary });
        live.stepFinished(event.stepId);
        const text = stepFinishedText(thread, event);
        return text ? reply(text) : [];
      }
      case 'note':
        return reply(noteText(event));
      case 'gate-failed':
        return [
          {
            kind: 'alert',
            channel: thread.alertsChannel,
            threadChannel: channel,
            cluster: thread.cluster,
            jobNumber: thread.board.jobNumber,
            gate: event.gate,
            observed: event.observed,
          },
        ];
      case 'plan-finished': {
        thread.board = { ...thread.board, outcome: event.outcome, summary: event.summary };
        live.finish();
        const final: ThreadOp = {
          kind: 'final',
          channel,
          jobNumber: thread.board.jobNumber,
          summary: outcomeText(thread, event),
        };
        // Under a halted Cilium rollout's final report: the Roll back Cilium button; under any failed or cancelled job's, Re-run.
        const offers = [ciliumRollbackOffer(thread), rerunOffer(thread)].flatMap((offer) =>
          offer ? [{ kind: 'offer', channel, ...offer } as const] : [],
        );
        return [final, ...offers];
      }
    }
  };
}
