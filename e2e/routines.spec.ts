import { expect, test } from '@playwright/test';
import { hostedAgents, newPerson, signUp, uniqueEmail } from './helpers';

test('the owner gives Nova a morning routine, runs it now, finds it in the DM marked via routine, pauses it, reads its history, and finds its runs on the Home', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('routines', testInfo));
  await hostedAgents(page);

  // Settings → Routines, empty at first: the empty state says what a routine is for.
  await page.goto(`${workspacePath}/settings`);
  await page.getByRole('link', { name: /Routines/ }).click();
  await expect(page.getByRole('heading', { name: 'Routines', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No routines yet' })).toBeVisible();

  // A routine for Nova, every morning at 7:00. Nova's offline model answers a bookings question with the figures.
  await page.getByLabel('Agent', { exact: true }).selectOption({ label: 'Nova' });
  await page.getByLabel('Name', { exact: true }).fill('Morning bookings');
  await page.getByLabel('Instruction', { exact: true }).fill('How are bookings today?');
  await page.getByLabel('When', { exact: true }).selectOption({ label: 'Every morning at 7:00' });
  await page.getByRole('button', { name: 'Add routine' }).click();

  const card = page.getByRole('article', { name: 'Morning bookings' });
  await expect(card).toContainText('Nova · Every day at 07:00');
  await expect(card).toContainText(/Next run in \d+ (minutes?|hours?)/);
  await expect(card).toContainText('Not run yet.');
  await expect(page.getByRole('heading', { name: 'No routines yet' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('routines-listed.png'), fullPage: true });

  // Run now: the instruction is written in the DM at once, and the card links to it.
  await card.getByRole('button', { name: 'Run Morning bookings now' }).click();
  await expect(page.getByRole('status').getByText('“Morning bookings” was sent to Nova.', { exact: false })).toBeVisible();
  await expect(card).toContainText(/Last run .*: sent\./);
  await card.getByRole('link', { name: /Open in chat/ }).click();

  // In the DM with Nova: the message, marked as the routine's, and Nova's answer to it.
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  const messages = page.getByRole('list', { name: 'Messages in Nova' });
  const task = messages.getByRole('listitem').filter({ hasText: 'How are bookings today?' });
  await expect(task).toContainText('via routine · Morning bookings');
  await expect(messages.getByText(/^Bookings today:/)).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: testInfo.outputPath('routines-dm.png') });

  // Back on the page: paused, it has no next run, and it stays paused after a reload.
  await page.goto(`${workspacePath}/settings/routines`);
  const active = card.getByRole('switch', { name: 'Active Morning bookings' });
  await expect(active).toBeChecked();
  await active.click();
  await expect(active).not.toBeChecked();
  await expect(card).toContainText('Paused: no next run until it is resumed.');
  await expect(card).not.toContainText('Next run');
  await page.reload();
  await expect(card.getByRole('switch', { name: 'Active Morning bookings' })).not.toBeChecked();
  await expect(card).toContainText('Paused: no next run until it is resumed.');

  // Run by hand while paused, then the history: both runs, newest first, each with its way to the DM.
  await card.getByRole('button', { name: 'Run Morning bookings now' }).click();
  await expect(page.getByRole('status').getByText('“Morning bookings” was sent to Nova.', { exact: false })).toBeVisible();
  await card.getByRole('button', { name: 'Show history' }).click();
  const history = card.getByRole('list', { name: 'Runs of Morning bookings' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('sent · run by hand');
  await expect(history.getByRole('link', { name: /^Open in chat: the run of / })).toHaveCount(2);
  await expect(card.getByRole('button', { name: 'Hide history' })).toHaveAttribute('aria-expanded', 'true');
  await page.screenshot({ path: testInfo.outputPath('routines-history.png'), fullPage: true });

  // A custom cron the server cannot read: its sentence says what to write instead, and nothing is added.
  await page.getByLabel('Name', { exact: true }).fill('Broken schedule');
  await page.getByLabel('Instruction', { exact: true }).fill('How are bookings today?');
  await page.getByLabel('When', { exact: true }).selectOption({ label: 'Custom (cron expression)' });
  await page.getByLabel('Cron expression', { exact: true }).fill('0 7 * *');
  await page.getByRole('button', { name: 'Add routine' }).click();
  await expect(page.getByText('"0 7 * *" is not a cron expression: write five fields (minute hour day month weekday), like "0 7 * * *" for every day at 7:00.')).toBeVisible();
  await expect(page.getByLabel('Cron expression', { exact: true })).toBeFocused();
  await expect(page.getByRole('article', { name: 'Broken schedule' })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('routines-bad-cron.png'), fullPage: true });

  // The Home's Done for you counts both runs, and leads to the answer in the DM.
  await page.goto(workspacePath);
  await page.getByText('Ran 2 routines').click();
  await expect(page.getByText('Morning bookings, by Nova')).toHaveCount(2);
  await page.screenshot({ path: testInfo.outputPath('routines-home.png') });
  await page.getByRole('link', { name: 'See the answer to Morning bookings' }).first().click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('list', { name: 'Messages in Nova' }).getByText('via routine · Morning bookings').first()).toBeVisible();

  await context.close();
});
