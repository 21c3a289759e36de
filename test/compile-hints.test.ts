import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { addCompileHints, COMPILE_HINT } from '../scripts/compile-hints.mjs';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeBuild(files: Record<string, string>, rootMainFiles: string[]) {
  dir = mkdtempSync(path.join(os.tmpdir(), 'mv-hints-'));
  mkdirSync(path.join(dir, 'static', 'chunks'), { recursive: true });
  for (const [file, source] of Object.entries(files)) writeFileSync(path.join(dir, file), source);
  writeFileSync(path.join(dir, 'build-manifest.json'), JSON.stringify({ rootMainFiles }));
}
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');

it('marks the scripts every page starts with, once, and leaves the others as they are', () => {
  fakeBuild({ 'static/chunks/react.js': 'push([1,(e)=>{}])', 'static/chunks/page.js': 'push([2,(e)=>{}])' }, ['static/chunks/react.js']);

  expect(addCompileHints(dir)).toEqual(['static/chunks/react.js']);
  expect(read('static/chunks/react.js')).toBe(`${COMPILE_HINT}push([1,(e)=>{}])`);
  expect(read('static/chunks/page.js')).toBe('push([2,(e)=>{}])');

  expect(addCompileHints(dir)).toEqual([]);
  expect(read('static/chunks/react.js')).toBe(`${COMPILE_HINT}push([1,(e)=>{}])`);
});
