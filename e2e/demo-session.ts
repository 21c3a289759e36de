import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, TestInfo } from '@playwright/test';
import { newPerson } from './helpers';

/**
 * The demo owner's session, signed in once per run and shared by every spec and project: sign-in is
 * rate limited per email (5 in 15 minutes), and the demo is the only workspace with planet data.
 * Kept under the run's output directory, which Playwright empties at the start of each run. Null where
 * the app shows no demo login (only embedded installs do), so the specs that need it skip; with
 * E2E_EXPECT_DEMO=1 (npm test, whose servers all seed the demo) a missing demo login is an error instead.
 */
export async function demoSession(browser: Browser, testInfo: TestInfo): Promise<{ context: BrowserContext; workspacePath: string } | null> {
  const dir = path.join(testInfo.project.outputDir, '.demo-session');
  const file = path.join(dir, `${new URL(testInfo.project.use.baseURL!).port}.json`);
  if (!existsSync(file)) {
    const { context, page } = await newPerson(browser, testInfo);
    await page.goto('/sign-in');
    const useDemo = page.getByRole('button', { name: 'Use the demo account' });
    if ((await useDemo.count()) === 0) {
      await context.close();
      if (process.env.E2E_EXPECT_DEMO === '1') {
        throw new Error(
          `E2E_EXPECT_DEMO=1 but ${testInfo.project.use.baseURL}/sign-in shows no demo login: the server under test has no demo ` +
            '(it seeds one on the embedded database unless SEED_DEMO=0, on Postgres only with SEED_DEMO=1).',
        );
      }
      return null;
    }
    await useDemo.click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/w\//);
    const list = (await (await page.request.get('/api/workspaces')).json()) as { data: Array<{ id: string; name: string }> };
    const workspacePath = `/w/${list.data.find((w) => w.name === 'Studio Aurora')!.id}`;
    // The demo's first screen is the salon, not the owner's empty personal workspace.
    if (new URL(page.url()).pathname !== workspacePath) throw new Error(`The demo login landed on ${page.url()}, not on Studio Aurora (${workspacePath}).`);
    const state = await context.storageState();
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ state, workspacePath }));
    await context.close();
  }
  const { state, workspacePath } = JSON.parse(readFileSync(file, 'utf8')) as { state: BrowserContextOptions['storageState']; workspacePath: string };
  const { viewport, isMobile, hasTouch, userAgent, deviceScaleFactor, baseURL } = testInfo.project.use;
  const context = await browser.newContext({ viewport, isMobile, hasTouch, userAgent, deviceScaleFactor, baseURL, locale: 'en-US', storageState: state });
  return { context, workspacePath };
}
