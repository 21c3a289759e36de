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

/**
 * Signs up through the form and waits for the personal workspace. Without `next` it asks for the front
 * door (`/`), as a link from elsewhere would, so onboarding (/welcome, e2e/onboarding.spec.ts) is not
 * on the way. Returns the path it landed on.
 */
export async function signUp(page: Page, email: string, next?: string): Promise<string> {
  await signUpToOnboarding(page, email, next ?? '/');
  if (next) return next;
  await page.waitForURL(/\/w\/[0-9a-f-]{36}/);
  return new URL(page.url()).pathname;
}

/** Signs up through the form and waits where it leads: onboarding (/welcome), or `next` when given. */
export async function signUpToOnboarding(page: Page, email: string, next?: string): Promise<void> {
  await page.goto(next ? `/sign-up?next=${encodeURIComponent(next)}` : '/sign-up');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  // `/` redirects on to a workspace at once: the caller waits for that.
  if (next !== '/') await page.waitForURL((url) => url.pathname === (next ?? '/welcome'));
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
    // Through the API, with the page's session: quicker than Settings → Agents, which e2e/agents.spec.ts drives.
    const response = await page.request.post('/api/agents', { data: { name, role, runtime: 'hosted', backend: 'offline' } });
    expect(response.status()).toBe(201);
  }
}
