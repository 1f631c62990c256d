import type { AnsibleEvent, PlaybookFailure, RecapCounts } from './ansible-event.js';
import type { HostLine } from './parse-host-line.js';

export type HostResult = Extract<AnsibleEvent, { type: 'host-result' }>;

/** A result whose body (JSON or YAML) continues on the lines below it. */
export interface OpenBody {
  readonly line: HostLine;
  readonly style: 'json' | 'yaml';
  /** Only a failure's body is kept: its message is all that is read from it. */
  readonly keep: boolean;
  text: string;
}

/** What the next line can be: the parser's one piece of control state. */
export type ParserMode =
  /** Banners, host lines, warnings and errors. */
  | { readonly name: 'scanning' }
  /** Inside a result's body. */
  | { readonly name: 'body'; readonly body: OpenBody }
  /** A failure waits one line: `...ignoring` may forgive it. */
  | { readonly name: 'held-failure'; readonly failure: HostResult }
  /** Inside `--diff` output. */
  | { readonly name: 'diff' }
  /** Below `PLAY RECAP`. */
  | { readonly name: 'recap' };

export const SCANNING: ParserMode = { name: 'scanning' };
export const DIFF: ParserMode = { name: 'diff' };
export const RECAP: ParserMode = { name: 'recap' };

/** A mode's answer to a line: the next mode, and whether that mode must still read the line. */
export interface Transition {
  readonly next: ParserMode;
  readonly handOn: boolean;
}

export const consumed = (next: ParserMode): Transition => ({ next, handOn: false });
export const handedOn = (next: ParserMode): Transition => ({ next, handOn: true });

/** What the run has added up so far: counts and bounded lists, never the lines themselves. */
export interface ParseRun {
  readonly keptFailures: number;
  readonly keptDiffLines: number;
  lineCount: number;
  playIndex: number;
  playName: string | null;
  batch: number;
  taskIndex: number;
  taskName: string | null;
  lastTask: string | null;
  /** The diff lines of the result being read. */
  diff: string[];
  recap: Record<string, RecapCounts> | null;
  failures: PlaybookFailure[];
  readonly warnings: string[];
  readonly errors: string[];
}

export function createParseRun(limits: { failures?: number; diffLines?: number }): ParseRun {
  return {
    keptFailures: limits.failures ?? 20,
    keptDiffLines: limits.diffLines ?? 40,
    lineCount: 0,
    playIndex: 0,
    playName: null,
    batch: 0,
    taskIndex: 0,
    taskName: null,
    lastTask: null,
    diff: [],
    recap: null,
    failures: [],
    warnings: [],
    errors: [],
  };
}
