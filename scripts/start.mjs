// `npm start`: builds the app when there is no build yet (or the sources are newer), then serves it
// on http://localhost:3000. The embedded database, its migrations and the demo seed happen at start-up.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const buildId = path.join(root, '.next', 'BUILD_ID');

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

const sources = ['app', 'components', 'lib', 'inngest', 'server', 'public', 'supabase']
  .map((d) => path.join(root, d))
  .filter(existsSync);
const stale = !existsSync(buildId) || Math.max(...sources.map(newestSource)) > statSync(buildId).mtimeMs;
if (stale) {
  console.log('Building Multiverbe (first start or changed sources)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const port = process.env.PORT ?? '3000';
// Next's own binary, not npx: npx does not pass a SIGTERM on, so the server never heard it. With
// NEXT_MANUAL_SIG_HANDLE, Next leaves SIGTERM/SIGINT to the app, which stops its background work, hands
// back its leases and closes the embedded database before exiting (instrumentation-node.ts).
// Node closes an idle kept-alive connection after 5 s; a client (or proxy) that reuses it at that moment
// gets ECONNRESET instead of an answer. Idle connections stay open longer than a proxy's usual 60 s.
const server = spawn(process.execPath, [path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'start', '-p', port, '--keepAliveTimeout', '75000'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_MANUAL_SIG_HANDLE: 'true' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
