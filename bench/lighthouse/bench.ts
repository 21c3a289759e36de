import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { calibratedCpuSlowdown, runLighthouse, type LighthouseReport } from '@/test/lighthouse';
import type { Bench } from '../run';
import { median } from '../stats';

/**
 * Lighthouse's mobile profile on the Home of the demo workspace (Studio Aurora), against a baseline
 * run side by side: the sign-in page, signed out — the same framework scripts with one small form and
 * no data, about the floor any page of this App Router app starts from (a 404 page would be closer,
 * but Lighthouse refuses to score a page that answers 404). The built app (`npm run build`) is started on a
 * fresh embedded database; RUNS rounds, the two pages alternating. Target: Home performance ≥ 95.
 * LIGHTHOUSE_CPU_SLOWDOWN replaces the profile's 4× CPU slowdown, to calibrate it to a host faster or slower
 * than the one Lighthouse assumes (bench/README.md): a number, or `calibrated` for the slowdown Lighthouse's
 * calculator gives this host, from the benchmarkIndex of one run before the rounds.
 */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 6);
const CPU_SLOWDOWN_SETTING = process.env.LIGHTHOUSE_CPU_SLOWDOWN;
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3499);
const BASE = `http://127.0.0.1:${PORT}`;

async function startApp(): Promise<{ password: string; stop: () => Promise<void> }> {
  if (!existsSync(path.join(process.cwd(), '.next', 'BUILD_ID'))) throw new Error('bench/lighthouse measures the built app: run `npm run build` first.');
  if (await fetch(`${BASE}/api/health`).then(() => true, () => false)) throw new Error(`Port ${PORT} is already serving something; set LIGHTHOUSE_PORT.`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mv-lighthouse-'));
  // The embedded database, whatever this shell points at.
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn('npx', ['next', 'start', '-p', String(PORT)], {
    env: { ...env, PGLITE_DIR: path.join(dir, 'pglite'), PORT: String(PORT), APP_URL: BASE, LOG_LEVEL: 'warn' },
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const password = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const login = /Demo login: \S+ \/ (\S+)/.exec(out);
      if (login) resolve(login[1]!);
    });
    child.once('exit', (code) => reject(new Error(`next start exited (${code}) before printing the demo login:\n${out}`)));
  });
  for (let i = 0; i < 60 && !(await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 500));
  return {
    password,
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function signIn(password: string): Promise<{ cookie: string; home: string }> {
  const response = await fetch(`${BASE}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@studio-aurora.demo', password }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
  const cookie = response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { data } = (await (await fetch(`${BASE}/api/workspaces`, { headers: { cookie } })).json()) as { data: Array<{ id: string; name: string }> };
  return { cookie, home: `${BASE}/w/${data.find((w) => w.name === 'Studio Aurora')!.id}` };
}

/** The calculator's slowdown for this host, read from one run of the sign-in page. */
async function hostSlowdown(): Promise<number> {
  const { benchmarkIndex } = await runLighthouse(`${BASE}/sign-in`, '');
  const slowdown = calibratedCpuSlowdown(benchmarkIndex);
  if (slowdown === undefined) throw new Error(`This host's benchmarkIndex (${benchmarkIndex}) is too low to emulate Lighthouse's phone.`);
  return slowdown;
}

const bench: Bench = async () => {
  const app = await startApp();
  const CPU_SLOWDOWN = CPU_SLOWDOWN_SETTING === 'calibrated' ? await hostSlowdown() : CPU_SLOWDOWN_SETTING ? Number(CPU_SLOWDOWN_SETTING) : undefined;
  const reports: Record<'Home' | 'sign-in page (baseline)', LighthouseReport[]> = { Home: [], 'sign-in page (baseline)': [] };
  try {
    const { cookie, home } = await signIn(app.password);
    for (let round = 0; round < RUNS; round++) {
      // Alternating, each starting the round in turn, so both see the same machine.
      const order = round % 2 ? (['sign-in page (baseline)', 'Home'] as const) : (['Home', 'sign-in page (baseline)'] as const);
      for (const page of order) reports[page].push(await (page === 'Home' ? runLighthouse(home, cookie, { cpuSlowdownMultiplier: CPU_SLOWDOWN }) : runLighthouse(`${BASE}/sign-in`, '', { cpuSlowdownMultiplier: CPU_SLOWDOWN })));
    }
  } finally {
    await app.stop();
  }
  const rows = Object.entries(reports).map(([page, runs]) => {
    const perf = runs.map((r) => r.scores.performance);
    return {
      page,
      'performance median': median(perf),
      'min–max': `${Math.min(...perf)}–${Math.max(...perf)}`,
      'LCP ms (median)': Math.round(median(runs.map((r) => r.lcpMs))),
      'TBT ms (median)': Math.round(median(runs.map((r) => r.tbtMs))),
      'accessibility / best practices (min)': `${Math.min(...runs.map((r) => r.scores.accessibility))} / ${Math.min(...runs.map((r) => r.scores['best-practices']))}`,
    };
  });
  const all = Object.values(reports).flat();
  return {
    title: `Lighthouse mobile profile${CPU_SLOWDOWN ? `, CPU slowdown ${CPU_SLOWDOWN.toFixed(1)}× instead of 4×` : ''}, ${RUNS} alternated rounds (target: Home performance ≥ 95)`,
    rows,
    notes: [
      `Home performance by run: ${reports.Home.map((r) => r.scores.performance).join(', ')}; sign-in page: ${reports['sign-in page (baseline)'].map((r) => r.scores.performance).join(', ')}`,
      `CPU slowdown simulated: ${[...new Set(all.map((r) => r.cpuSlowdownMultiplier.toFixed(1)))].join(', ')}×`,
      `benchmarkIndex ${Math.round(Math.min(...all.map((r) => r.benchmarkIndex)))}–${Math.round(Math.max(...all.map((r) => r.benchmarkIndex)))}, load average ${Math.min(...all.map((r) => r.load))}–${Math.max(...all.map((r) => r.load))}`,
    ],
  };
};

export default bench;
