import { readFile } from 'node:fs/promises';

/** What the page is made of, served by the bot itself: the page works on a network without internet. */
export interface PageAssets {
  readonly html: string;
  /** By file name under /assets/: its type and bytes. */
  readonly files: ReadonlyMap<string, { readonly type: string; readonly body: Buffer }>;
}

// `web/` sits at the package root: two levels above both src/web/ (tsx) and dist/web/ (the image).
const ROOT = new URL('../../web/', import.meta.url);

/** Reads the page's files once, at start: a missing file fails the start, not a visitor's request. */
export async function readAssets(): Promise<PageAssets> {
  const read = (name: string) => readFile(new URL(name, ROOT));
  const [html, script, style] = await Promise.all([
    read('job-page.html'),
    read('job-page.js'),
    read('job-page.css'),
  ]);
  return {
    html: html.toString('utf8'),
    files: new Map([
      ['job-page.js', { type: 'text/javascript; charset=utf-8', body: script }],
      ['job-page.css', { type: 'text/css; charset=utf-8', body: style }],
    ]),
  };
}
