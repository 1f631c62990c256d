import { describeCommand } from '../command/lifecycle-command.js';
import type { Plan } from '../plan/plan.js';

/** `plan <command>`: every step, its target, its exact command line and its ⚠ mark; runs nothing. */
export function describePlan(plan: Plan): string {
  const lines = [
    `Plan for \`${describeCommand(plan.command)}\` on ${plan.cluster}: ${plan.steps.length} steps (⚠ = stops for approval first)`,
  ];
  for (const [index, step] of plan.steps.entries()) {
    const mark = step.approval ? `${step.approval.mark} ` : '';
    lines.push(`${index + 1}. ${mark}${step.title} → ${step.target}`);
    if (step.commandLine) lines.push(`   ${step.commandLine}`);
  }
  return lines.join('\n');
}
