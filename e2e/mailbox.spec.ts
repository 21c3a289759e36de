import { expect, test } from '@playwright/test';
import { newPerson, signUp, uniqueEmail } from './helpers';

/**
 * The dev mailbox holds every reset link, so it shows a person's mail only to them, and all of it only
 * with the mailbox key. The key is printed at start; scripts/test-all.sh sets it for the server it starts
 * (DEV_MAILBOX_KEY) and the specs read it from the same variable, as an operator who set it would.
 */
test('a reset link is shown only to its owner and to whoever has the mailbox key', async ({ browser }, testInfo) => {
  const key = process.env.DEV_MAILBOX_KEY;
  if (!key) throw new Error('Start the app with DEV_MAILBOX_KEY set and pass the same value to this spec (scripts/test-all.sh does).');
  const resetLinks = 'a[href^="/reset-password/confirm"]';

  const victimEmail = uniqueEmail('victim', testInfo);
  const victim = await newPerson(browser, testInfo);
  await signUp(victim.page, victimEmail);

  // Someone asks for a reset of the victim's password and opens the mailbox without signing in.
  const stranger = await newPerson(browser, testInfo);
  expect((await stranger.page.request.post('/api/auth/password-reset', { data: { email: victimEmail } })).status()).toBe(202);
  await stranger.page.goto('/dev/mailbox');
  await expect(stranger.page.getByText(/open the mailbox link printed in the terminal/)).toBeVisible();
  await expect(stranger.page.locator(resetLinks)).toHaveCount(0);
  await expect(stranger.page.getByText(victimEmail)).toHaveCount(0);
  expect((await stranger.page.request.get(`/api/dev/mailbox?email=${encodeURIComponent(victimEmail)}`)).status()).toBe(401);

  // A wrong key opens nothing.
  await stranger.page.getByLabel('Mailbox key').fill('not the key of this install');
  await stranger.page.getByRole('button', { name: 'Open the mailbox' }).click();
  await expect(stranger.page.getByText('That is not this install’s mailbox key.')).toBeVisible();
  await expect(stranger.page.locator(resetLinks)).toHaveCount(0);

  // Another person, signed in, sees only their own mail.
  const otherEmail = uniqueEmail('other', testInfo);
  const other = await newPerson(browser, testInfo);
  await signUp(other.page, otherEmail);
  await other.page.goto(`/dev/mailbox?email=${encodeURIComponent(victimEmail)}`);
  await expect(other.page.getByText(`Showing the mail sent to ${otherEmail}`)).toBeVisible();
  await expect(other.page.locator(resetLinks)).toHaveCount(0);
  await expect(other.page.getByText(victimEmail)).toHaveCount(0);

  // The victim, signed in, sees their reset link.
  await victim.page.goto('/dev/mailbox');
  await expect(victim.page.getByText(`Showing the mail sent to ${victimEmail}`)).toBeVisible();
  await expect(victim.page.locator(resetLinks)).toHaveCount(1);

  // The printed link with the key opens all of it, and the key does not stay in the address bar.
  await stranger.page.goto(`/dev/mailbox/unlock?key=${encodeURIComponent(key)}`);
  await stranger.page.waitForURL((url) => url.pathname === '/dev/mailbox' && url.search === '');
  await stranger.page.getByLabel('Show emails to').fill(victimEmail);
  await stranger.page.getByRole('button', { name: 'Filter' }).click();
  await expect(stranger.page.locator(resetLinks)).toHaveCount(1);
  const cookie = (await stranger.context.cookies()).find((c) => c.name === 'mv_mailbox');
  expect(cookie?.httpOnly).toBe(true);

  for (const person of [victim, stranger, other]) await person.context.close();
});
