import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Where the lab's processes run the compiled sources from: beside `src` and `dist`, at the same depth,
 * so a path the sources resolve from their own file (`../../web/`) lands where it does for `npm start`.
 * Not `dist` itself, which `npm run build` (the benchmark's `built` processes) owns.
 */
const OUT_DIR = '.test-build';
const STAMP = join(ROOT, OUT_DIR, '.sources-hash');

/** The bot's entry in the test build: `node <this>`, with no Node flags, as tests ran it through tsx. */
export const TEST_BUILD_MAIN = `${OUT_DIR}/main.js`;

/**
 * Compiles `src` once for a test run, as `npm run build` does but without the type check (CI's
 * typecheck step does that): each process a lab test starts then loads plain JS instead of compiling
 * the whole bot again through tsx (seconds of CPU per start). Skipped while the sources, the tsconfigs
 * and the compiler are those of the last build. The lab projects' vitest globalSetup.
 */
export default function buildForTests(): void {
  const hash = sourcesHash();
  if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === hash) return;
  rmSync(join(ROOT, OUT_DIR), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      ...['-p', 'tsconfig.build.json', '--outDir', OUT_DIR, '--noCheck'],
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  writeFileSync(STAMP, hash);
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => join('src', file));
  for (const file of [
    ...sources,
    'tsconfig.json',
    'tsconfig.build.json',
    'node_modules/typescript/package.json',
  ]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}
