/** The repo files a job has read at one commit, kept with its checkpoints across runs (null: absent). */
export interface KeptRepoFiles {
  readonly commit: string;
  readonly files: Readonly<Record<string, string | null>>;
}

/**
 * The infra repo's files as a job reads them: each once per commit. The repo at a commit is the
 * truth the whole job checks (a disruptive step refuses a dirty checkout), so reading a file again
 * at the same commit can only cost time. A run learns HEAD before its first read; what an earlier
 * run of the job kept serves only when HEAD is still that commit, and a HEAD read that differs (an
 * approval's re-check, say) forgets every file.
 */
export interface RepoFileCache {
  /** The file's text (undefined when absent): `load` reads it unless this commit's copy is kept. */
  read(
    relPath: string,
    head: () => Promise<string>,
    load: () => Promise<string | undefined>,
  ): Promise<string | undefined>;
  /**
   * What `load` learns about the repo as the ops host runs it (Ansible's reading of its ansible.cfg),
   * once per commit a run: `head` reads HEAD each time, so a new commit asks again. Never kept for the
   * next run, which asks again too.
   */
  once<T>(key: string, head: () => Promise<string>, load: () => Promise<T>): Promise<T>;
  /**
   * An answer just read afresh (or proven unchanged) at the commit last seen, or, before this run's
   * first HEAD read, at the one it is about to see: the next `once` of its key takes it.
   */
  remember(key: string, answer: unknown): void;
  /** HEAD as just read on the ops host. */
  commitSeen(commit: string): void;
  /** HEAD as this run last read it (undefined before its first read): what its steps ran at. */
  commit(): string | undefined;
}

export function createRepoFileCache(
  kept: KeptRepoFiles | undefined,
  keep: (files: KeptRepoFiles) => Promise<void>,
): RepoFileCache {
  let commit: string | undefined;
  let headRead: Promise<string> | undefined;
  const files = new Map<string, Promise<string | undefined>>();
  const texts = new Map<string, string | null>();
  const answers = new Map<string, Promise<unknown>>();
  // Remembered before this run first read HEAD: the commit it is about to see is the one read now.
  const rememberedEarly = new Map<string, Promise<unknown>>();
  const cache: RepoFileCache = {
    async read(relPath, head, load) {
      headRead ??= head();
      await headRead;
      const known = files.get(relPath);
      if (known) return known;
      const at = commit!;
      const loading = load();
      files.set(relPath, loading);
      try {
        const text = await loading;
        if (commit === at) {
          texts.set(relPath, text ?? null);
          await keep({ commit: at, files: Object.fromEntries(texts) });
        }
        return text;
      } catch (error) {
        // A read that failed (a lost connection, a cancel) is not the file: the next one tries again.
        if (files.get(relPath) === loading) files.delete(relPath);
        throw error;
      }
    },
    async once<T>(key: string, head: () => Promise<string>, load: () => Promise<T>): Promise<T> {
      await head();
      const known = answers.get(key);
      if (known) return known as Promise<T>;
      const loading = load();
      answers.set(key, loading);
      // A load that failed (a lost connection, a cancel) answered nothing: the next one asks again.
      loading.catch(() => {
        if (answers.get(key) === loading) answers.delete(key);
      });
      return loading;
    },
    remember(key, answer) {
      (commit === undefined ? rememberedEarly : answers).set(key, Promise.resolve(answer));
    },
    commit: () => commit,
    commitSeen(seen) {
      if (seen === commit) return;
      const first = commit === undefined;
      commit = seen;
      files.clear();
      texts.clear();
      answers.clear();
      if (first) for (const [key, answer] of rememberedEarly) answers.set(key, answer);
      rememberedEarly.clear();
      if (kept?.commit !== seen) return;
      for (const [path, text] of Object.entries(kept.files)) {
        texts.set(path, text);
        files.set(path, Promise.resolve(text ?? undefined));
      }
    },
  };
  return cache;
}
