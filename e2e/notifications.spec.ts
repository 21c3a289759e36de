import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { newPerson, signUp, uniqueEmail } from './helpers';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Multiverbe installs as an app: the manifest and the service worker are served as browsers need them,
 * the worker registers at the origin's root, and Settings → Notifications has the device's switch
 * (docs/notifications.md). Pushes themselves are tested against a local push service in
 * inngest/functions/push-decision.test.ts: a browser here has no push service to reach.
 */
test('the app is installable: manifest, icons and a service worker at the root; the notifications switch is accessible', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const path = await signUp(page, uniqueEmail('push', testInfo));

  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await page.request.get(manifestHref!);
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  const fields = await manifest.json();
  expect(fields).toMatchObject({ name: 'Multiverbe', short_name: 'Multiverbe', start_url: '/', scope: '/', display: 'standalone' });
  for (const size of ['192x192', '512x512']) {
    const icon = fields.icons.find((i: { sizes: string; type: string }) => i.sizes === size && i.type === 'image/png');
    expect((await page.request.get(icon.src)).headers()['content-type'], size).toBe('image/png');
  }
  const worker = await page.request.get('/sw.js');
  expect(worker.headers()['content-type']).toContain('application/javascript');
  expect(worker.headers()['cache-control']).toContain('no-cache');

  await page.goto(`${path}/settings/notifications`);
  expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.scope))).toBe(new URL('/', page.url()).href);
  const toggle = page.getByRole('switch', { name: 'Notifications on this device' });
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('This device shows no notifications from Multiverbe.')).toBeVisible();
  await expect(toggle).toBeEnabled();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
  await context.close();
});
