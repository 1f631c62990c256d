import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findOutlastingWaits } from '../support/find-outlasting-waits.js';
import { labTimeScale } from '../support/lab-time.js';

const TEST_ROOT = fileURLToPath(new URL('../', import.meta.url));

describe('lab deadlines', () => {
  it('no wait in any test file outlasts the timeout of the test that holds it', async () => {
    const files = (await readdir(TEST_ROOT, { recursive: true })).filter((f) => f.endsWith('.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    const outlasting = [];
    for (const file of files) {
      const text = await readFile(`${TEST_ROOT}${file}`, 'utf8');
      for (const wait of findOutlastingWaits(file, text)) {
        outlasting.push(
          `test/${file}:${wait.line}: waits ${wait.waitMs} ms in a test of ${wait.testTimeoutMs} ms`,
        );
      }
    }
    expect(outlasting).toEqual([]);
  });

  it('finds a wait longer than its test, the describe timeout or the default counting', () => {
    const text = [
      "describe('a', { timeout: labMs(30_000) }, () => {",
      "  it('b', async () => { await waitFor('x', probe, { timeoutMs: 45_000 }); });",
      "  it('c', async () => { await waitFor('x', probe, { timeoutMs: 45_000 }); }, { timeout: labMs(50_000) });",
      '});',
      "it('d', async () => { await page.waitForFunction(f, { timeout: labMs(90_000) }); });",
    ].join('\n');
    expect(findOutlastingWaits('x.test.ts', text)).toEqual([
      { line: 2, waitMs: 45_000, testTimeoutMs: 30_000 },
      { line: 5, waitMs: 90_000, testTimeoutMs: 60_000 },
    ]);
  });

  it('one time scale: LAB_TIME_SCALE when set, else 2 on two cores and 1 from four; a bad value is an error', () => {
    expect(labTimeScale(undefined, 2)).toBe(2);
    expect(labTimeScale('', 8)).toBe(1);
    expect(labTimeScale('3', 2)).toBe(3);
    expect(() => labTimeScale('0.5', 2)).toThrow('LAB_TIME_SCALE must be a number of at least 1, got "0.5"');
    expect(() => labTimeScale('fast', 2)).toThrow('LAB_TIME_SCALE');
  });
});
