import { startAutoApprover } from './auto-approver.js';
import type { BenchLab, LogEntry } from './bench-lab.js';

export interface UpDevRun {
  readonly jobId: string;
  readonly sentAt: number;
  readonly endedAt: number;
  readonly seconds: number;
  /** Steps that started (each once, also across approvals). */
  readonly steps: number;
  /** Click → the approved step started, one per approval. */
  readonly resumeMs: readonly number[];
}

/** `/cluster up dev`, every approval answered at once, through to its outcome (which must be success). */
export async function runUpDev(lab: BenchLab): Promise<UpDevRun> {
  const approver = startAutoApprover(lab);
  try {
    const response = await lab.command('up dev');
    const jobId = await lab.jobIdOf(response);
    const outcome = await lab.outcome(jobId);
    if (outcome.outcome !== 'succeeded') throw new Error(`up dev ${outcome.outcome}: ${outcome.msg}`);
    const started = lab.logEntries().filter((entry) => entry.jobId === jobId && entry.msg === 'step started');
    return {
      jobId,
      sentAt: response.sentAt,
      endedAt: outcome.at,
      seconds: (outcome.at - response.sentAt) / 1000,
      steps: new Set(started.map((entry) => entry.stepId)).size,
      resumeMs: approver.clicks.map((click) => firstAfter(started, click.at).at - click.at),
    };
  } finally {
    approver.stop();
  }
}

function firstAfter(entries: readonly LogEntry[], at: number): LogEntry {
  const found = entries.find((entry) => entry.at >= at);
  if (!found) throw new Error(`no step started after the click at ${new Date(at).toISOString()}`);
  return found;
}
