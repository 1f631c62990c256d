import type { LifecycleCommand } from '../command/lifecycle-command.js';
import type { Step } from './step.js';

export interface Plan {
  readonly command: LifecycleCommand;
  readonly cluster: string;
  readonly steps: readonly Step[];
}
