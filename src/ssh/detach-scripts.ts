/*
 * The remote half of the detach protocol: fixed POSIX sh programs, run as `sh -c <script> <name> args...`
 * so every caller-supplied word (the folder, the command's argv) is a quoted positional argument and
 * none is ever parsed as shell text; the command's directory and environment are the start's own. A command's folder holds
 *   out  its stdout and stderr, appended as they come;
 *   pid  the pid of its runner, which leads the command's own session (so also its process group id);
 *   rc   its exit status (128+N when a signal N ended it), written once it has ended.
 * Only setsid is outside POSIX (util-linux, everywhere we run); without it nothing starts.
 */

/** `$0` of every detach script: marks them in process lists and the lab's command log. */
export const DETACH_SCRIPT_NAME = 'cluster-bot-detached';

/**
 * Args: folder, argv. Runs argv with its output appended to `out`, then writes
 * `rc` (through a rename, so a reader never sees half of it). TERM, as a cancel sends it to the whole
 * group, ends the command; the trap only keeps this runner alive to record how it ended (a trap,
 * unlike an ignored signal, is not inherited by the command).
 */
export const RUNNER_SCRIPT = [
  'folder=$1',
  'shift',
  // The runner names itself: a pid file means a runner was launched, whatever became of the start.
  'printf "%s\\n" "$$" >"$folder/pid.tmp" && mv -f -- "$folder/pid.tmp" "$folder/pid"',
  'trap : TERM',
  '"$@" </dev/null >>"$folder/out" 2>&1',
  'status=$?',
  'printf "%s\\n" "$status" >"$folder/rc.tmp" && mv -f -- "$folder/rc.tmp" "$folder/rc"',
].join('\n');

/**
 * Args: runner script, folder, argv. Starts the runner in its own session, with no
 * tie to this SSH session, unless the folder exists: making it is the one atomic claim, so a command is
 * never started twice for one folder. A folder with neither `pid` nor `rc` is a start cut off before
 * its runner was launched (its worker died in between): it is claimed again. Waits for the runner's
 * pid, then prints `started`, or `exists`.
 */
export const START_SCRIPT = [
  'runner=$1 folder=$2',
  'shift 2',
  'command -v setsid >/dev/null 2>&1 || { echo "setsid is not installed: cannot run a command detached" >&2; exit 69; }',
  // The folders and `out` are the bot's alone (0700, 0600); the command keeps the caller's umask.
  'mask=$(umask)',
  'umask 077',
  'mkdir -p -- "$(dirname -- "$folder")" || exit 73',
  'if ! mkdir -- "$folder" 2>/dev/null; then',
  '  if [ -f "$folder/pid" ] || [ -f "$folder/rc" ]; then echo exists; exit 0; fi',
  'fi',
  ': >"$folder/out"',
  'umask "$mask"',
  `setsid sh -c "$runner" ${DETACH_SCRIPT_NAME} "$folder" "$@" </dev/null >/dev/null 2>&1 &`,
  'tries=0',
  'while [ ! -f "$folder/pid" ]; do',
  '  tries=$((tries + 1))',
  '  [ "$tries" -le 200 ] || { echo "the runner did not start" >&2; exit 70; }',
  '  sleep 0.05 2>/dev/null || sleep 1',
  'done',
  'echo started',
].join('\n');

/**
 * Args: folder, and optionally a time (epoch seconds). Prints `none` (never started, or its start cut
 * off before the runner), `running` or `ended`; with a time, also `none` for a run whose runner wrote
 * its `pid` (written once, at its start) before it, or whose start cannot be read (another's run).
 */
export const PROBE_SCRIPT = [
  'cd -- "$1" 2>/dev/null || { echo none; exit 0; }',
  'if [ -n "$2" ]; then',
  '  started=$(stat -c %Y pid 2>/dev/null) && [ "$started" -ge "$2" ] || { echo none; exit 0; }',
  'fi',
  'if [ -f rc ]; then echo ended; elif [ -f pid ]; then echo running; else echo none; fi',
].join('\n');

/**
 * Args: folder, lines already shown. Prints `out` on stdout from the line after those, as it grows,
 * until the command has ended and everything is printed; then `exit <status>` on stderr, or `lost`
 * when its runner is gone without an `rc` (killed, or the host restarted). Ending this script (the
 * worker stops following) leaves the command alone.
 */
export const FOLLOW_SCRIPT = [
  'cd -- "$1" || exit 66',
  'offset=$(($(head -n "$2" out | wc -c)))',
  // `rc` is looked for every tick (a builtin test, no process), so the end is seen within 50 ms; the
  // runner and `out`, which take processes to read, every fifth tick, and at the end.
  'tick=0',
  'while :; do',
  '  state=running',
  '  if [ -f rc ]; then state=ended',
  '  elif [ "$tick" -eq 0 ] && ! kill -0 "$(cat pid)" 2>/dev/null; then',
  '    if [ -f rc ]; then state=ended; else state=lost; fi',
  '  fi',
  '  if [ "$tick" -eq 0 ] || [ "$state" != running ]; then',
  '    size=$(($(wc -c <out)))',
  '    if [ "$size" -gt "$offset" ]; then',
  '      tail -c +"$((offset + 1))" out | head -c "$((size - offset))"',
  '      offset=$size',
  '    fi',
  '  fi',
  '  [ "$state" = running ] || break',
  '  tick=$(((tick + 1) % 5))',
  '  sleep 0.05 2>/dev/null || sleep 1',
  'done',
  'if [ "$state" = ended ]; then echo "exit $(cat rc)" >&2; else echo lost >&2; fi',
].join('\n');

/**
 * Args: folder, grace seconds. Ends a running command on purpose (a cancel): TERM to its process
 * group, KILL after the grace; `rc` says 137 if the runner itself had to be killed. A cancel that cut
 * its start off may have come after the runner was launched and before it wrote its pid: the pid gets
 * the start's own wait, so that runner is ended too, never left running unfollowed.
 */
export const KILL_SCRIPT = [
  'cd -- "$1" || exit 66',
  'tries=0',
  'while [ ! -f pid ] && [ ! -f rc ] && [ "$tries" -lt 200 ]; do',
  '  tries=$((tries + 1))',
  '  sleep 0.05 2>/dev/null || sleep 1',
  'done',
  '[ -f rc ] && exit 0',
  'group=$(cat pid) || exit 66',
  'kill -s TERM -- "-$group" 2>/dev/null || exit 0',
  'waited=0',
  'while [ ! -f rc ] && [ "$waited" -lt "$2" ]; do sleep 1; waited=$((waited + 1)); done',
  '[ -f rc ] && exit 0',
  'kill -s KILL -- "-$group" 2>/dev/null',
  'echo 137 >rc',
].join('\n');

/**
 * Args: root, the job's folder name, age in minutes. Removes the job's folder under root (the job
 * ended for good), and any other folder there untouched for longer than the age (another job's, of
 * this deployment or another, whose own end could not reach this host), step by step: a step whose command still runs (a pid, no rc, the runner alive) is kept and
 * printed as `kept <folder>`, so nothing running is ever cut off from its output or exit code.
 */
export const PRUNE_SCRIPT = [
  'root=$1 job=$2 age=$3',
  '[ -d "$root" ] || exit 0',
  'prune_job() {',
  '  for step in "$1"/*; do',
  '    [ -d "$step" ] || continue',
  '    if [ -f "$step/pid" ] && [ ! -f "$step/rc" ] && kill -0 "$(cat "$step/pid")" 2>/dev/null; then',
  '      echo "kept $step"',
  '    else',
  '      rm -rf -- "$step"',
  '    fi',
  '  done',
  '  rmdir -- "$1" 2>/dev/null',
  '  return 0',
  '}',
  'if [ -d "$root/$job" ]; then prune_job "$root/$job"; fi',
  'find "$root" -mindepth 1 -maxdepth 1 -type d -mmin +"$age" | while read -r dir; do prune_job "$dir"; done',
].join('\n');

/**
 * argv that runs one of the scripts above with its arguments, under `runAs` (e.g. `sudo -n`, for a
 * folder only root may enter).
 */
export function detachArgv(script: string, args: readonly string[], runAs: readonly string[] = []): string[] {
  return [...runAs, 'sh', '-c', script, DETACH_SCRIPT_NAME, ...args];
}
