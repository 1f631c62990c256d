export type {
  AnsibleEvent,
  HostResultStatus,
  PlaybookFailure,
  PlaybookOutcome,
  ProgressState,
  Recap,
  RecapCounts,
} from './ansible-event.js';
export {
  type AnsibleOutputParser,
  type AnsibleOutputParserLimits,
  createAnsibleOutputParser,
} from './create-ansible-output-parser.js';
export { describeProgress } from './describe-progress.js';
export { type ListedPlay, parseListTasks } from './parse-list-tasks.js';
export { type CheckDiffSummary, summariseCheckDiff } from './summarise-check-diff.js';
