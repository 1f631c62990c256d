import { Session } from 'node:inspector/promises';

/** What a piece of code did, counted: the same run gives the same counts, whatever the machine's load. */
export interface Work {
  /** Blocks of JavaScript executed in the files counted (loop bodies, branches, calls), by V8's block coverage. */
  readonly blocks: number;
  /** Characters the regex engine and string searches went over, by where each call started and ended. */
  readonly chars: number;
}

export interface WorkCounter {
  count(run: () => void): Promise<Work>;
  stop(): Promise<void>;
}

type Patch = [object, string, (original: (...args: never[]) => unknown) => (...args: never[]) => unknown];

/**
 * Counts work instead of timing it. JavaScript blocks come from V8's precise block coverage over the
 * scripts `counted` accepts; what runs inside the engine is counted at the calls: a regex's exec
 * from its lastIndex to the end of its match (or of the text, when it finds none; one character for
 * a sticky one that fails where it stands), a string search from where it starts to what it found.
 * Backtracking inside one regex is not seen here: the recheck test is what rules it out.
 */
export async function startWorkCounter(counted: (url: string) => boolean): Promise<WorkCounter> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
  let chars = 0;
  const patches: Patch[] = [
    [
      RegExp.prototype,
      'exec',
      (exec) =>
        function (this: RegExp, text: string) {
          const from = this.global || this.sticky ? this.lastIndex : 0;
          const found = (exec as (this: RegExp, text: string) => RegExpExecArray | null).call(this, text);
          chars += found ? found.index + found[0].length - from : this.sticky ? 1 : text.length - from;
          return found;
        },
    ],
    [
      String.prototype,
      'indexOf',
      (indexOf) =>
        function (this: string, search: string, from = 0) {
          const at = (indexOf as (this: string, s: string, f: number) => number).call(this, search, from);
          chars += at < 0 ? this.length - from : at + search.length - from;
          return at;
        },
    ],
    [
      String.prototype,
      'lastIndexOf',
      (lastIndexOf) =>
        function (this: string, search: string, from = Number.POSITIVE_INFINITY) {
          const at = (lastIndexOf as (this: string, s: string, f: number) => number).call(this, search, from);
          chars += Math.min(from, this.length) - Math.max(at, 0);
          return at;
        },
    ],
    ...(['includes', 'split', 'trim', 'toLowerCase'] as const).map(
      (name): Patch => [
        String.prototype,
        name,
        (original) =>
          function (this: string, ...args: unknown[]) {
            chars += this.length;
            return (original as (this: string, ...a: unknown[]) => unknown).apply(this, args);
          },
      ],
    ),
  ];
  const originals = patches.map(([target, name, wrap]) => {
    const original = (target as Record<string, (...args: never[]) => unknown>)[name]!;
    Object.defineProperty(target, name, { value: wrap(original), configurable: true, writable: true });
    return [target, name, original] as const;
  });
  const blocks = async () => {
    const { result } = await session.post('Profiler.takePreciseCoverage');
    let total = 0;
    for (const script of result.filter((s) => counted(s.url)))
      for (const fn of script.functions) for (const range of fn.ranges) total += range.count;
    return total;
  };
  return {
    async count(run) {
      await blocks();
      chars = 0;
      run();
      const counted = chars;
      return { blocks: await blocks(), chars: counted };
    },
    async stop() {
      for (const [target, name, original] of originals)
        Object.defineProperty(target, name, { value: original, configurable: true, writable: true });
      await session.post('Profiler.stopPreciseCoverage');
      await session.post('Profiler.disable');
      session.disconnect();
    },
  };
}
