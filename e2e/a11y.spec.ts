import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { COMPILE_HINT } from '../scripts/compile-hints.mjs';
import { PAGE_CATEGORIES, runLighthouse } from '../test/lighthouse';
import { demoSession } from './demo-session';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test('axe finds no violations on Home (Done groups open, and More open on a phone), Settings → Autonomy and Settings → Messages', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const page = await demo!.context.newPage();

  await page.goto(demo!.workspacePath);
  await expect(page.getByRole('heading', { name: 'Needs your OK' })).toBeVisible();
  for (const summary of await page.locator('details summary').all()) await summary.click();
  if (testInfo.project.name === 'phone') {
    // Last: a tap elsewhere closes the popover.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'More' }).click();
    await expect(nav.getByRole('link', { name: 'Pipeline' })).toBeVisible();
  }
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);

  await page.goto(`${demo!.workspacePath}/settings/autonomy`);
  await expect(page.getByRole('heading', { name: 'Kill switch' })).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);

  await page.goto(`${demo!.workspacePath}/settings/messages`);
  await expect(page.getByRole('heading', { name: 'Email (SMTP)' })).toBeVisible();
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
 * Lighthouse's mobile profile against the local app, in the phone project only: accessibility, best
 * practices and SEO must each score at least 95. These audit the page, not the machine, so one run is
 * enough. The performance score is a timing of the host (it made CI red on a slow one while the page had
 * not changed): it is measured in `npm run bench -- lighthouse`, side by side with the sign-in page, and
 * never asserted in a test (bench/README.md).
 */
const MIN_SCORE = 95;

test(`Lighthouse scores Home at least ${MIN_SCORE} for accessibility, best practices and SEO`, async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'Lighthouse runs once per run, in the phone project.');
  test.setTimeout(180_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const cookies = await demo!.context.cookies();
  await demo!.context.close();

  const url = new URL(demo!.workspacePath, testInfo.project.use.baseURL).toString();
  const report = await runLighthouse(url, cookies.map((c) => `${c.name}=${c.value}`).join('; '), { categories: PAGE_CATEGORIES });
  const scores = Object.fromEntries(PAGE_CATEGORIES.map((category) => [category, report.scores[category]]));
  console.log('Lighthouse (mobile):', JSON.stringify(scores));
  expect(report.finalUrl, 'Lighthouse was not signed in').toContain(demo!.workspacePath);
  for (const [category, score] of Object.entries(scores)) expect(score, category).toBeGreaterThanOrEqual(MIN_SCORE);
});
