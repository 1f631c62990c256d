import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADVERSARIAL_LINES, KNOWN_SECRETS, plainLine } from '../../bench/adversarial-lines.js';
import { createLineRedactor } from '../../src/lifecycle/redact-lines.js';
import { createRedactor } from '../../src/log/create-redactor.js';
import { MAX_CHECKED_LINE } from '../../src/log/mask.js';
import { startWorkCounter, type WorkCounter } from '../support/count-work.js';

// A line four times longer costs four times the work when the redactor is linear, sixteen when it
// is quadratic; the margin is for fixed costs and V8's counts, which vary a little between runs.
const LINEAR_BOUND = 5;
const LONG = MAX_CHECKED_LINE;
const SHORT = LONG / 4;
const lines = Object.entries({ plain: plainLine, ...ADVERSARIAL_LINES });

describe('the work of redacting a line grows linearly with its length', () => {
  const redact = createRedactor(KNOWN_SECRETS);
  let counter: WorkCounter;
  beforeAll(async () => {
    counter = await startWorkCounter((url) => url.includes('/src/log/') || url.includes('/src/lifecycle/'));
  });
  afterAll(() => counter.stop());

  const workOf = async (line: string) => {
    const redactLine = createLineRedactor(redact);
    const { blocks, chars } = await counter.count(() => redactLine(line));
    return blocks + chars;
  };

  it.each(lines)('%s: 4× the characters, at most 5× the work', async (_name, line) => {
    const short = await workOf(line(SHORT));
    const long = await workOf(line(LONG));
    expect(long / short, `${short} for ${SHORT} characters, ${long} for ${LONG}`).toBeLessThanOrEqual(
      LINEAR_BOUND,
    );
  });
});
