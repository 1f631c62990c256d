import type { PlaybookOutcome, Recap, RecapCounts } from './ansible-event.js';
import type { ParseRun } from './parser-state.js';

const failing = (counts: RecapCounts) => counts.failed > 0 || counts.unreachable > 0;

/** The outcome once the process ended; the run's input must have been ended first. */
export function concludePlaybook(run: ParseRun, exitCode: number | null): PlaybookOutcome {
  const recap = run.recap;
  // Rescued failures leave the host at failed=0: the recap decides which failures stood.
  const stood = recap
    ? run.failures.filter((failure) => {
        const counts = recap[failure.host];
        return counts === undefined || failing(counts);
      })
    : run.failures;
  const hostsFailed = recap ? Object.values(recap).some(failing) : stood.length > 0;
  return {
    ok: exitCode === 0 && !hostsFailed,
    exitCode,
    recap: recap as Recap | null,
    failures: stood,
    lastTask: run.lastTask,
    warnings: [...run.warnings],
    errors: [...run.errors],
    lineCount: run.lineCount,
  };
}
