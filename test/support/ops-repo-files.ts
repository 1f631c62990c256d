import type { ScriptedReply, ShellCall } from './scripted-shell.js';

const REPO = '/home/ops/homelab/';

/** The example config's infra repo on the ops host, as files (path from the repo root → text): `cat` reads them. */
export function opsRepoFiles(files: Readonly<Record<string, string | undefined>>) {
  return (call: ShellCall): ScriptedReply | undefined => {
    if (call.target !== 'ops' || call.argv[0] !== 'cat') return undefined;
    const path = call.argv[2]!;
    const content = path.startsWith(REPO) ? files[path.slice(REPO.length)] : undefined;
    return content === undefined
      ? { exitCode: 1, stderr: [`cat: ${path}: No such file or directory`] }
      : { stdout: content.split('\n') };
  };
}
