import { expect, type Browser, type BrowserContext, type Page, type TestInfo } from '@playwright/test';

/** A new browser context with this project's device (phone or desktop): one per person. */
export async function newPerson(browser: Browser, testInfo: TestInfo): Promise<{ context: BrowserContext; page: Page }> {
  const { viewport, isMobile, hasTouch, userAgent, deviceScaleFactor, baseURL, locale } = testInfo.project.use;
  const context = await browser.newContext({ viewport, isMobile, hasTouch, userAgent, deviceScaleFactor, baseURL, locale: locale ?? 'en-US' });
  return { context, page: await context.newPage() };
}

export const uniqueEmail = (name: string, testInfo: TestInfo) =>
  `${name}-${testInfo.project.name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}@example.test`;

export const PASSWORD = 'correct horse battery staple';

/** Signs up through the form and waits for the personal workspace. Returns its URL path. */
export async function signUp(page: Page, email: string, next?: string): Promise<string> {
  await page.goto(next ? `/sign-up?next=${encodeURIComponent(next)}` : '/sign-up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  if (next) {
    await page.waitForURL((url) => url.pathname === next);
    return next;
  }
  await page.waitForURL(/\/w\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname;
}

export async function expectNoAccess(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(404);
  await expect(page.getByText(/doesn.t exist or you don.t have access/i)).toBeVisible();
}

/**
 * Two hosted agents on the offline model, run by the app's own hosted runner. The offline model
 * cannot understand messages; in chat it follows fixed rules (lib/bridge/offline.ts): asked
 * "ask NAME: question", it opens a <dm target="NAME"> side thread; the agent asked acknowledges
 * there; the first agent then resolves the thread with that answer.
 */
export async function hostedAgents(page: Page) {
  for (const [name, role] of [
    ['Nova', 'Receptionist'],
    ['Atlas', 'Chief of staff'],
  ]) {
    // Agents have no screen of their own yet: created through the API, with the page's session.
    const response = await page.request.post('/api/agents', { data: { name, role, runtime: 'hosted', backend: 'offline' } });
    expect(response.status()).toBe(201);
  }
}
