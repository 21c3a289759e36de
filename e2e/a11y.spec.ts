import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { runLighthouse } from '../test/lighthouse';
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

/**
 * Lighthouse's mobile profile as it ships (Moto G Power viewport, simulated slow 4G, 4× CPU) against
 * the local app, once per run (the phone project measures, the desktop project skips). Accessibility
 * and best practices do not depend on timing and must score at least 95. The performance score is a
 * timing measurement: on this shared 2-core machine the same build scores anywhere from the high 70s
 * to the high 90s with the load (docs/home.md), so it is recorded here and measured where timings
 * belong, in `npm run bench -- lighthouse` (bench/README.md), against its target of 95.
 */
const MIN_SCORE = 95;

test(`Lighthouse scores Home at least ${MIN_SCORE} for accessibility and best practices, and records performance`, async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'Lighthouse runs once per run, in the phone project.');
  test.setTimeout(240_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const cookies = await demo!.context.cookies();
  await demo!.context.close();

  const url = new URL(demo!.workspacePath, testInfo.project.use.baseURL).toString();
  const report = await runLighthouse(url, cookies.map((c) => `${c.name}=${c.value}`).join('; '));
  expect(report.finalUrl, 'Lighthouse was not signed in').toContain(demo!.workspacePath);
  const { scores, metrics, benchmarkIndex, load } = report;
  testInfo.annotations.push({ type: 'lighthouse', description: JSON.stringify({ scores, metrics, benchmarkIndex, load }) });
  console.log('Lighthouse (mobile):', JSON.stringify({ scores, metrics, benchmarkIndex, load }));
  expect(scores.accessibility, JSON.stringify(metrics)).toBeGreaterThanOrEqual(MIN_SCORE);
  expect(scores['best-practices']).toBeGreaterThanOrEqual(MIN_SCORE);
});
