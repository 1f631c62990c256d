import type { ProgressState } from './ansible-event.js';

/** `play 2/5, task 17: k3s_server : Install k3s` (`play 2, ...` when the play count is unknown). */
export function describeProgress(state: ProgressState): string {
  if (state.playIndex === 0) return 'starting';
  const play = state.playCount ? `play ${state.playIndex}/${state.playCount}` : `play ${state.playIndex}`;
  if (state.taskIndex === 0 || state.taskName === null) return `${play}: ${state.playName ?? ''}`.trimEnd();
  return `${play}, task ${state.taskIndex}: ${state.taskName}`;
}
