import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The lab files that wait longest, longest first (a quiet run of 2026-12-06 on two cores: 146 s down
 * to 55 s). On a clean checkout vitest knows no timings and starts the largest files first; a
 * two-minute file that happens to be small then starts last and keeps the run going alone while the
 * other workers idle.
 */
const LONGEST_FIRST = [
  'test/e2e/shared-slack-budget.test.ts',
  'test/integration/crash-resume.test.ts',
  'test/e2e/approvals.test.ts',
  'test/integration/upgrade.test.ts',
  'test/e2e/rerun-failed-job.test.ts',
  'test/reliability/crashes-and-slack-faults.test.ts',
  'test/e2e/console-pty.test.ts',
  'test/integration/prod-privilege.test.ts',
  'test/integration/cilium-stuck-agent.test.ts',
  'test/integration/kubeconfig-after-restart.test.ts',
  'test/e2e/worker-handover.test.ts',
  'test/integration/reprovision.test.ts',
];

const rankOf = (spec: TestSpecification) => {
  const rank = LONGEST_FIRST.findIndex((file) => spec.moduleId.endsWith(file));
  return rank < 0 ? LONGEST_FIRST.length : rank;
};

/** Vitest's order (projects in their group order), with each project's longest lab files first. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byProject = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      byProject.set(spec.project.name, [...(byProject.get(spec.project.name) ?? []), spec]);
    }
    return [...byProject.values()].flatMap((specs) =>
      specs
        .map((spec, index) => ({ spec, index, rank: rankOf(spec) }))
        .sort((a, b) => a.rank - b.rank || a.index - b.index)
        .map(({ spec }) => spec),
    );
  }
}
