import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { demoSession } from './demo-session';

/**
 * DESIGN.md's budget: the Home's first load carries under 150 KB of JavaScript, compressed. Measured
 * on the built app as the browser sees it: every script file the Home requests until the network is
 * idle (framework, shell, page and the client islands it hydrates), each gzipped at the default level
 * as `next start` serves it. Inline scripts (the streamed React payload) are HTML, not counted here.
 */
const BUDGET_KB = 150;

test(`the Home loads under ${BUDGET_KB} KB of JavaScript (gzip)`, async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'The same files load on every viewport: measured once, in the phone project.');
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const page = await demo!.context.newPage();
  const scripts = new Map<string, Promise<number>>();
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const name = new URL(response.url()).pathname;
    scripts.set(name, response.body().then((body) => gzipSync(body).length));
  });

  await page.goto(demo!.workspacePath, { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { name: 'Needs your OK' })).toBeVisible();
  const sizes = Object.fromEntries(await Promise.all([...scripts].map(async ([name, size]) => [name, await size] as const)));
  const totalKb = Object.values(sizes).reduce((sum, n) => sum + n, 0) / 1024;
  const report = { totalKb: Math.round(totalKb * 10) / 10, files: Object.keys(sizes).length, sizes };
  testInfo.annotations.push({ type: 'home-js', description: JSON.stringify(report) });
  console.log('Home first-load JS (gzip):', JSON.stringify(report));
  expect(Object.keys(sizes).length, 'no script was loaded: the measurement is broken').toBeGreaterThan(0);
  expect(totalKb, JSON.stringify(sizes)).toBeLessThan(BUDGET_KB);
  await demo!.context.close();
});

/**
 * The Home's text keeps to a few sizes and weights. Each distinct size × weight is a font the first
 * layout has to look up, and Chromium on Linux asks its browser process for each one synchronously
 * (docs/home.md): 13 of them were a third of the Home's first layout, most of it waiting. Counted on the
 * text the phone lays out on load (collapsed and hidden parts are not laid out, so they cost nothing).
 */
const MAX_TEXT_STYLES = 8;

test(`the Home's text uses at most ${MAX_TEXT_STYLES} font sizes × weights on a phone`, async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'Lighthouse measures the phone layout; the desktop one has its own sidebar.');
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const page = await demo!.context.newPage();
  await page.goto(demo!.workspacePath);
  await expect(page.getByRole('heading', { name: 'Needs your OK' })).toBeVisible();
  const styles = await page.evaluate(() => {
    const seen = new Map<string, string>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || !node.textContent?.trim() || element.getClientRects().length === 0) continue;
      const { fontSize, fontWeight } = getComputedStyle(element);
      const style = `${fontSize} ${fontWeight}`;
      if (!seen.has(style)) seen.set(style, node.textContent.trim().slice(0, 40));
    }
    return Object.fromEntries(seen);
  });
  expect(Object.keys(styles).length, 'no text was laid out: the measurement is broken').toBeGreaterThan(0);
  expect(Object.keys(styles).length, JSON.stringify(styles)).toBeLessThanOrEqual(MAX_TEXT_STYLES);
  await demo!.context.close();
});
