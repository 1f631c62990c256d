import { createLineRedactor } from '../src/lifecycle/redact-lines.js';
import { createRedactor, type Redact } from '../src/log/create-redactor.js';
import { MAX_CHECKED_LINE } from '../src/log/mask.js';
import { ADVERSARIAL_LINES, KNOWN_SECRETS, plainLine } from './adversarial-lines.js';
import { median, round } from './stats.js';

// 1×, 2×, 4× and 8× one size, the largest the longest line read whole.
const SIZES = [8, 4, 2, 1].map((part) => MAX_CHECKED_LINE / part);
// Rounds run first and dropped: the JIT compiles the redactor, each line is flattened once.
const WARM_UP_ROUNDS = 5;
const ROUNDS = 25;

export interface RedactionFigures {
  readonly redaction: {
    /** Characters in each line of the ratio: the longest a line is read whole. */
    lineChars: number;
    /** The sizes each line was also timed at, for the growth. */
    sizes: number[];
    /** Rounds measured (after the warm-up rounds, which are dropped). */
    rounds: number;
    /** Median ms to redact one plain line (ordinary playbook output) of lineChars. */
    plainMs: number;
    /** Median ms for each adversarial line of lineChars, by what it repeats. */
    adversarialMs: Record<string, number>;
    /** The highest, over the adversarial lines, of the median of adversarial / plain timed side by side. */
    adversarialRatio: number;
    /** The same from each line's fastest round: min adversarial / min plain. */
    adversarialRatioOfMinimums: number;
    worst: string;
    /** Fastest time at 8× the size over fastest at 1×, per line: linear is at most 8, quadratic 64. */
    growth: Record<string, number>;
    worstGrowth: number;
  };
}

type Samples = Record<string, number[][]>;

const timeOnce = (redact: Redact, line: string) => {
  const redactLine = createLineRedactor(redact);
  const started = performance.now();
  redactLine(line);
  return performance.now() - started;
};

/**
 * Each adversarial line beside a plain one of the same size, through the line redactor a step's
 * output goes through, at 1×, 2×, 4× and 8× 8 KiB. Timed in pairs, the order alternating, so that
 * the machine's load, a GC or another process on the same cores falls on both sides alike; after a
 * warm-up; medians of the pairs' ratios, minimums beside them, and how time grows with the size.
 */
export async function measureRedaction(): Promise<RedactionFigures> {
  const redact = createRedactor(KNOWN_SECRETS);
  const lines = Object.fromEntries(
    Object.entries({ plain: plainLine, ...ADVERSARIAL_LINES }).map(([name, line]) => [name, SIZES.map(line)]),
  );
  const names = Object.keys(ADVERSARIAL_LINES);
  const samples: Samples = Object.fromEntries(Object.keys(lines).map((name) => [name, SIZES.map(() => [])]));
  const ratios: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let turn = 0; turn < WARM_UP_ROUNDS + ROUNDS; turn++) {
    names.forEach((name, i) => {
      SIZES.forEach((_, size) => {
        const plainFirst = (turn + i + size) % 2 === 0;
        const first = timeOnce(redact, lines[plainFirst ? 'plain' : name]![size]!);
        const second = timeOnce(redact, lines[plainFirst ? name : 'plain']![size]!);
        if (turn < WARM_UP_ROUNDS) return;
        const [plainMs, adversarialMs] = plainFirst ? [first, second] : [second, first];
        samples.plain![size]!.push(plainMs);
        samples[name]![size]!.push(adversarialMs);
        if (size === SIZES.length - 1) ratios[name]!.push(adversarialMs / plainMs);
      });
    });
  }
  return { redaction: figures(samples, ratios, names) };
}

function figures(samples: Samples, ratios: Record<string, number[]>, names: string[]) {
  const full = SIZES.length - 1;
  const fastest = (name: string, size: number) => Math.min(...samples[name]![size]!);
  const byName = (value: (name: string) => number) =>
    Object.fromEntries(names.map((name) => [name, round(value(name), 2)]));
  const ratioByName = byName((name) => median(ratios[name]!));
  const [worst, adversarialRatio] = Object.entries(ratioByName).sort(([, a], [, b]) => b - a)[0]!;
  const growth = Object.fromEntries(
    ['plain', ...names].map((name) => [name, round(fastest(name, full) / fastest(name, 0), 2)]),
  );
  return {
    lineChars: MAX_CHECKED_LINE,
    sizes: SIZES,
    rounds: ROUNDS,
    plainMs: round(median(samples.plain![full]!), 3),
    adversarialMs: byName((name) => median(samples[name]![full]!)),
    adversarialRatio,
    adversarialRatioOfMinimums: Math.max(
      ...Object.values(byName((name) => fastest(name, full) / fastest('plain', full))),
    ),
    worst,
    growth,
    worstGrowth: Math.max(...Object.values(growth)),
  };
}
