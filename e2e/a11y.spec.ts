import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { COMPILE_HINT } from '../scripts/compile-hints.mjs';
import { runMobileProfile } from '../test/lighthouse';
import { demoSession } from './demo-session';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test('axe finds no violations on Home (Done groups open) and on Settings → Autonomy', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const page = await demo!.context.newPage();

  await page.goto(demo!.workspacePath);
  await expect(page.getByRole('heading', { name: 'Needs your OK' })).toBeVisible();
  for (const summary of await page.locator('details summary').all()) await summary.click();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);

  await page.goto(`${demo!.workspacePath}/settings/autonomy`);
  await expect(page.getByRole('heading', { name: 'Kill switch' })).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
  await demo!.context.close();
});

test('the scripts every page starts with are served with V8’s compile hint (npm run build)', async ({ request }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'Once per run.');
  const { rootMainFiles } = JSON.parse(readFileSync('.next/build-manifest.json', 'utf8')) as { rootMainFiles: string[] };
  expect(rootMainFiles.length).toBeGreaterThan(0);
  for (const file of rootMainFiles) {
    const script = await request.get(`/_next/${file}`);
    expect(script.ok(), file).toBe(true);
    expect((await script.text()).startsWith(COMPILE_HINT), file).toBe(true);
  }
});

/**
 * Lighthouse's mobile profile (Moto G Power viewport, simulated slow 4G, 4× CPU) against the local app,
 * in the phone project only: five runs, and the median performance score must be at least 95, as must
 * every run's accessibility and best practices. Five, not three: Lighthouse's docs/variability.md says
 * the median of five halves the run-to-run variance. On a host slower than the one Lighthouse's 4× is
 * calibrated for, the runs use the calibrated slowdown instead (test/lighthouse.ts, docs/home.md), so the
 * check judges the page and not the machine. `npm test` runs it once, in the pass on the embedded
 * database (the page's scripts are the same in both passes; E2E_SKIP_LIGHTHOUSE=1 skips it in the other).
 * The same measurement, side by side with a baseline page and at other slowdowns, is
 * `npm run bench -- lighthouse` (bench/README.md).
 */
const MIN_SCORE = 95;
const RUNS = 5;

test(`Lighthouse scores Home at least ${MIN_SCORE} for performance, accessibility and best practices`, async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'Lighthouse runs once per run, in the phone project.');
  test.skip(process.env.E2E_SKIP_LIGHTHOUSE === '1', 'npm test runs Lighthouse once, in the pass on the embedded database.');
  test.setTimeout(720_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const cookies = await demo!.context.cookies();
  await demo!.context.close();

  const url = new URL(demo!.workspacePath, testInfo.project.use.baseURL).toString();
  const measured = await runMobileProfile(url, cookies.map((c) => `${c.name}=${c.value}`).join('; '), RUNS);
  test.skip(!measured, 'Lighthouse measured this host as too slow to emulate its reference phone (benchmarkIndex under 150).');
  const runs = measured!.reports.map(({ scores, metrics, benchmarkIndex, cpuSlowdownMultiplier, load }) => ({ scores, metrics, benchmarkIndex, cpuSlowdownMultiplier, load }));
  testInfo.annotations.push({ type: 'lighthouse', description: JSON.stringify({ performance: measured!.performance, runs }) });
  console.log('Lighthouse (mobile):', JSON.stringify({ performance: measured!.performance, runs }));
  for (const report of measured!.reports) {
    expect(report.finalUrl, 'Lighthouse was not signed in').toContain(demo!.workspacePath);
    expect(report.scores.accessibility).toBeGreaterThanOrEqual(MIN_SCORE);
    expect(report.scores['best-practices']).toBeGreaterThanOrEqual(MIN_SCORE);
  }
  expect(measured!.performance, JSON.stringify(runs)).toBeGreaterThanOrEqual(MIN_SCORE);
});
