import { quoteShellArgument } from '../lifecycle/quote-argv.js';

/** `$0` of the wrapper: marks a line built here (the test lab unwraps it to log what was asked). */
export const WRAPPED_COMMAND_NAME = 'cluster-bot-exec';

/** Seconds between SIGTERM and SIGKILL when a command is ended. */
export const END_GRACE_SECONDS = 5;

/*
 * Why a prelude: sshd does not end a command that runs without a pty when its channel closes, and a
 * `signal` channel request is no way out either: OpenSSH refuses it for sessions under a ForceCommand
 * and, where it is honoured, signals only the login shell's process group, not a command the shell forked.
 * So the remote line is a tiny POSIX sh program that
 * - keeps the channel's stdin on fd 3 (the command itself gets /dev/null, as with `ssh -n`);
 * - starts the command in its own session (`setsid`), so its whole process tree is one process group;
 * - watches stdin: end of input comes when the client sends EOF (cancel, timeout) or when the connection
 *   or its sshd dies. Then it sends SIGTERM to the group and SIGKILL after a grace period;
 * - otherwise waits for the command and exits with its status (a command killed by signal N exits 128+N).
 * Without setsid (not POSIX, but in util-linux everywhere we run), only the command's own process is ended.
 * Commands in it ignore SIGINT/SIGQUIT (POSIX rule for background jobs); the bot never sends those.
 */
const PRELUDE = [
  'exec 3<&0',
  'if command -v setsid >/dev/null 2>&1; then setsid sh -c "$1" 3<&- & group=-$!; else sh -c "$1" 3<&- & group=$!; fi',
  'pid=$!',
  // A second TERM covers an EOF that came before setsid had made the group.
  '{ while read -r _; do :; done; trap "" TERM;',
  ' kill -s TERM -- "$group" || { sleep 1; kill -s TERM -- "$group"; };',
  ` sleep ${END_GRACE_SECONDS}; kill -s KILL -- "$group"; } <&3 >/dev/null 2>&1 &`,
  'watcher=$!',
  'wait "$pid"',
  'status=$?',
  'kill "$watcher" 2>/dev/null',
  'exit "$status"',
].join('\n');

/** Wraps a shell line so that closing stdin (or losing the connection) ends its whole process tree. */
export function wrapInProcessGroup(commandLine: string): string {
  return `exec sh -c ${quoteShellArgument(PRELUDE)} ${WRAPPED_COMMAND_NAME} ${quoteShellArgument(commandLine)}`;
}
