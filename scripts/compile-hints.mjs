// Runs after `next build` (`npm run build`). Marks the scripts every page runs at start-up (the build
// manifest's root main files: React, the Next.js router, the Turbopack runtime) with V8's explicit
// compile hint, `//# allFunctionsCalledOnLoad` (v8.dev/blog/explicit-compile-hints, Chrome 136+;
// other engines read it as a comment). Without it V8 compiles each module's function lazily on the
// main thread when the page first calls it — about 50 ms for React's alone on a slow phone, in the one
// task that starts the app — and with it V8 compiles the whole file on a background thread while the
// file downloads. Measured in docs/home.md ("Compile hints").
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Prepends the hint to each root main file of the build in `nextDir` that lacks it; returns the files it changed. */
export function addCompileHints(nextDir) {
  const manifest = JSON.parse(readFileSync(path.join(nextDir, 'build-manifest.json'), 'utf8'));
  const changed = [];
  for (const file of manifest.rootMainFiles ?? []) {
    const full = path.join(nextDir, file);
    const source = readFileSync(full, 'utf8');
    if (source.startsWith(COMPILE_HINT)) continue;
    writeFileSync(full, COMPILE_HINT + source);
    changed.push(file);
  }
  return changed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const changed = addCompileHints(path.resolve(import.meta.dirname, '..', '.next'));
  console.log(`Compile hints: ${changed.length} start-up script${changed.length === 1 ? '' : 's'} marked.`);
}
