import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { labMs } from './lab-time.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LOOPBACK = /^(?:https?|wss?):\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\//;

/**
 * Debian's chromium, headless, that can reach loopback and nothing else: other host names never
 * resolve, a proxy on a closed port catches what would slip past, background services are off, and
 * every page's requests outside loopback are aborted (see /work/shared/reference/lab-notes.md).
 */
export interface LabBrowser {
  readonly browser: Browser;
  /** A new tab on `url`, with the status its document was served with. */
  open(url: string): Promise<{ page: Page; status: number | undefined }>;
}

export async function startBrowser(): Promise<LabBrowser> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Puppeteer's own 30 s to start Chromium is a lab deadline like any other: a loaded machine
    // starts it as surely, only later.
    timeout: labMs(30_000),
    args: [
      '--no-sandbox',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
      '--proxy-server=127.0.0.1:9',
      '--proxy-bypass-list=127.0.0.1;localhost',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-domain-reliability',
      '--no-pings',
    ],
  });
  return {
    browser,
    async open(url) {
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        if (LOOPBACK.test(request.url()) || request.url().startsWith('data:')) void request.continue();
        else void request.abort('blockedbyclient');
      });
      const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
      return { page, status: response?.status() };
    },
  };
}
