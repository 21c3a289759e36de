import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { startProviderStandIn, type StandIn } from '../test/oauth-providers';
import { newPerson, signUp, uniqueEmail } from './helpers';

/**
 * Settings → Connections with a stand-in as Google (test/oauth-providers.ts, on E2E_OAUTH_PORT): the
 * server under test is started with GOOGLE_* pointing there (scripts/test-all.sh). Connect goes through
 * the stand-in's consent redirect and the app's callback back to the screen; disconnect revokes at the
 * provider. Without E2E_OAUTH_PORT only the unconfigured screen is checked.
 */

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const oauthPort = Number(process.env.E2E_OAUTH_PORT ?? 0);
let standIn: StandIn | undefined;

test.beforeAll(async ({}, testInfo) => {
  if (!oauthPort) return;
  standIn = await startProviderStandIn(oauthPort);
  const base = testInfo.project.use.baseURL!;
  standIn.redirectUris = { google: `${base}/api/connections/google/callback`, github: `${base}/api/connections/github/callback` };
});
test.afterAll(async () => {
  await standIn?.close();
});

test('connect Google, see its access, disconnect: the grant is revoked at Google', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspace = await signUp(page, uniqueEmail('connections', testInfo));
  await page.goto(`${workspace}/settings`);
  await page.getByRole('link', { name: /Connections/ }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
  await expect(page.getByText('what you connect here is yours')).toBeVisible();

  if (!standIn) {
    await expect(page.getByText(/Not configured on this install\. To enable it, set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET/)).toBeVisible();
    expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
    await context.close();
    return;
  }
  await page.getByRole('button', { name: 'Connect Google' }).click();
  await page.waitForURL((url) => url.pathname.endsWith('/settings/connections') && url.searchParams.get('connected') === 'google');
  await expect(page.getByRole('status').filter({ hasText: 'Google is connected.' })).toBeVisible();
  const google = page.getByRole('region', { name: 'Google' });
  await expect(google.getByText('Connected as owner@gmail.test')).toBeVisible();
  await expect(google.getByText('Gmail: drafts and sending')).toBeVisible();
  await expect(google.getByText('Calendar: events, read and write')).toBeVisible();
  // One axe pass, on the fuller of the screen's states (a connection with its access and actions).
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);

  const revoked = standIn.revocations.length;
  await google.getByRole('button', { name: 'Disconnect Google' }).click();
  await google.getByRole('button', { name: 'Disconnect Google' }).click();
  await expect(page.getByText('Google is disconnected and its access was revoked.')).toBeVisible();
  await expect(google.getByText('Not connected')).toBeVisible();
  expect(standIn.revocations.length).toBe(revoked + 1);
  await expect(google.getByRole('button', { name: 'Connect Google' })).toBeVisible();
  await context.close();
});
