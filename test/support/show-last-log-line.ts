/// <reference lib="dom" />
import type { Page } from 'puppeteer-core';
import { labMs } from './lab-time.js';

/** Scrolls a job page's log to its end and waits until a row ending with `ending` is drawn (the log is virtualised). */
export async function showLastLogLine(page: Page, ending: string, timeoutMs: number): Promise<void> {
  await page.evaluate(() => {
    const box = document.getElementById('log')!;
    box.scrollTop = box.scrollHeight;
  });
  await page.waitForFunction(
    (text) => [...document.querySelectorAll('#log-rows .row')].some((row) => row.textContent?.endsWith(text)),
    { timeout: labMs(timeoutMs) },
    ending,
  );
}
