import { expect, test, type Locator, type Page } from '@playwright/test';
import { demoSession } from './demo-session';

/**
 * What a phone user sees is what happened (issue 18). No SMS or email provider is connected, so nothing
 * may say a message was sent; Undo puts a decision back where it was; Ignore is stored at once;
 * Customize speaks the reader's language; a run in Settings → Usage reads as sentences and fits the
 * screen. Both projects use the same demo workspace, so each step reads the state it starts from and
 * leaves it as it found it.
 */

const NOT_CONNECTED = 'Ready — connect email or SMS to send';

async function openAllCards(needs: Locator) {
  const more = needs.getByRole('button', { name: /^Show \d+ more$/ });
  if (await more.isVisible()) await more.click();
}

/** Lines that say something was sent ("Sent today 8:00", "sent 3 reminders"); "Not sent", "nothing … sent" are honest. */
const claimsOfSending = (text: string) => text.split('\n').filter((line) => /\bsent\b/i.test(line) && !/\b(not|nothing|never)\b[^.]*\bsent\b/i.test(line));

/** The proposal cards (a "do this automatically?" suggestion is an article too, without a message). */
const proposalCards = (needs: Locator, page: Page) => needs.getByRole('article').filter({ has: page.getByRole('blockquote') });

/** "You approved N win-back messages" on the suggestion, or null while there is none. */
async function winBackApprovals(needs: Locator): Promise<number | null> {
  const line = needs.getByText(/^You approved \d+ win-back messages/);
  if ((await line.count()) === 0) return null;
  return Number((await line.textContent())!.match(/\d+/)![0]);
}

test('approve and undo, ignore and reload, Done for you: every text says what happened', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with proposals.');
  const page = await demo!.context.newPage();
  await page.goto(demo!.workspacePath);
  const needs = page.getByRole('region', { name: 'Needs your OK' });
  await openAllCards(needs);

  // Approve a win-back: the line says the message is ready, not sent, and the approvals count one more.
  const before = await winBackApprovals(needs);
  const winBack = proposalCards(needs, page).filter({ has: page.getByRole('heading', { level: 3, name: /^Invite .+ back$/ }) }).first();
  const what = (await winBack.getByRole('heading', { level: 3 }).textContent())!;
  await winBack.getByRole('button', { name: `Approve: ${what}` }).click();
  const approvedLine = needs.getByRole('listitem').filter({ hasText: `Approved: ${what}.` });
  await expect(approvedLine).toContainText(`Approved: ${what}. ${NOT_CONNECTED}.`);
  await expect(needs.getByRole('heading', { name: what })).toHaveCount(0);
  const counted = (before ?? 2) + 1;
  await expect(needs.getByText(`You approved ${counted} win-back messages`)).toBeVisible();

  // Undo: the card is back in Needs your OK and the approval no longer counts, also after a reload.
  await approvedLine.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').getByText('Undone: nothing was sent, and it waits for your OK again.')).toBeVisible();
  await expect(needs.getByRole('heading', { name: what, level: 3 })).toBeVisible();
  const expectCountBack = async () =>
    before === null ? expect(needs.getByText(/^You approved \d+ win-back messages/)).toHaveCount(0) : expect(needs.getByText(`You approved ${before} win-back messages`)).toBeVisible();
  await expectCountBack();
  await page.reload();
  await openAllCards(needs);
  await expect(needs.getByRole('heading', { name: what, level: 3 })).toBeVisible();
  await expectCountBack();

  // Ignore is stored at once: a reload within two seconds does not bring the card back.
  const ignored = proposalCards(needs, page).first();
  const ignoredWhat = (await ignored.getByRole('heading', { level: 3 }).textContent())!;
  const [rejected] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && /\/decisions\/[0-9a-f-]{36}\/reject$/.test(r.url()), { timeout: 2000 }),
    ignored.getByRole('button', { name: `Ignore: ${ignoredWhat}` }).click(),
  ]);
  expect(rejected.status()).toBe(200);
  await page.reload();
  await openAllCards(needs);
  await expect(needs.getByRole('heading', { name: 'Needs your OK', level: 2 })).toBeVisible();
  await expect(needs.getByRole('heading', { name: ignoredWhat, level: 3 })).toHaveCount(0);

  // The line's Undo brings an ignored card back, for good.
  const next = proposalCards(needs, page).first();
  const nextWhat = (await next.getByRole('heading', { level: 3 }).textContent())!;
  await next.getByRole('button', { name: `Ignore: ${nextWhat}` }).click();
  const ignoredLine = needs.getByRole('listitem').filter({ hasText: `Ignored: ${nextWhat}.` });
  await expect(ignoredLine).toBeVisible();
  await expect(needs.getByRole('heading', { name: nextWhat, level: 3 })).toHaveCount(0);
  await ignoredLine.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').getByText('Back in your list.')).toBeVisible();
  await expect(needs.getByRole('heading', { name: nextWhat, level: 3 })).toBeVisible();
  await page.reload();
  await openAllCards(needs);
  await expect(needs.getByRole('heading', { name: nextWhat, level: 3 })).toBeVisible();
  // The first ignored card goes back too, so the other project finds the demo as this one did.
  expect((await page.request.post(rejected.url().replace(/\/reject$/, '/undo'))).status()).toBe(200);

  // Done for you: prepared, ready to send, and no word of "sent" anywhere on the Home.
  const done = page.getByRole('region', { name: 'Done for you' });
  await expect(done.getByText(/^Prepared \d+ reminders?$/)).toBeVisible();
  await expect(done.getByText('No SMS or email is connected yet, so nothing has left the app: these messages are ready to send.')).toBeVisible();
  for (const summary of await done.locator('summary').all()) await summary.click();
  await expect(done.getByText(NOT_CONNECTED).first()).toBeVisible();
  await expect(done.getByRole('button', { name: /^Copy the message: / }).first()).toBeVisible();
  expect(claimsOfSending(await page.getByRole('main').innerText())).toEqual([]);

  // Settings → Messages: nothing connected, the same words and a copy button for each waiting message.
  await page.goto(`${demo!.workspacePath}/settings/messages`);
  await expect(page.getByText('Not connected: texts wait as ready to send.')).toBeVisible();
  await expect(page.getByText(NOT_CONNECTED).first()).toBeVisible();
  expect(claimsOfSending(await page.getByRole('main').innerText())).toEqual([]);

  // The outbox and a planet's recent actions say the same.
  await page.goto(`${demo!.workspacePath}/settings/autonomy`);
  await expect(page.getByText('No SMS or email is connected yet, so nothing leaves the app: each message waits here, ready to send, and can still be stopped.')).toBeVisible();
  await expect(page.getByText(NOT_CONNECTED).first()).toBeVisible();
  expect(claimsOfSending(await page.getByRole('main').innerText())).toEqual([]);
  const outbox = (await (await page.request.get(`/api/workspaces/${demo!.workspacePath.split('/')[2]}/outbox?limit=100`)).json()) as { data: Array<{ status: string }> };
  expect(outbox.data.length).toBeGreaterThan(0);
  expect(outbox.data.filter((m) => m.status === 'sent' || m.status === 'delivered')).toEqual([]);
  await page.goto(`${demo!.workspacePath}/planets/booking`);
  await expect(page.getByRole('heading', { name: 'Recent actions' })).toBeVisible();
  await expect(page.getByText(NOT_CONNECTED).first()).toBeVisible();
  const planet = await page.getByRole('main').innerText();
  expect(claimsOfSending(planet)).toEqual([]);
  expect(planet).not.toMatch(/\bDone\b/);
  await demo!.context.close();
});

test('Customize in Italian shows Italian labels, never keys, to the eye and to screen readers; a DM reads "Scrivi a"', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do).');
  await demo!.context.addCookies([{ name: 'mv_locale', value: 'it', url: testInfo.project.use.baseURL! }]);
  const page = await demo!.context.newPage();
  await page.goto(demo!.workspacePath);
  await page.getByRole('button', { name: 'Personalizza' }).click();
  const panel = page.getByRole('region', { name: 'Disponi la tua Home' });
  await expect(panel.getByRole('group', { name: 'Pianeti' })).toBeVisible();
  await expect(panel.getByText('Prenotazioni', { exact: true })).toBeVisible();
  await expect(panel.getByRole('checkbox', { name: 'Fissa Pianeti' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Sposta giù Prenotazioni' })).toBeVisible();
  const labels = await panel.evaluate((el) => [el.textContent ?? '', ...[...el.querySelectorAll('[aria-label]')].map((n) => n.getAttribute('aria-label') ?? '')].join('\n'));
  expect(labels).not.toMatch(/\b(planets|home|needs|done)\.[a-zA-Z]+/);
  // The rest of the Home in Italian: one new insight is singular, a percentage is elided where it must be.
  const home = await page.getByRole('main').innerText();
  expect(home).not.toMatch(/\b1 nuovi\b|\b(del|dal) (8|11|80)\b/);
  // A direct message is written to someone, not in something: "Scrivi a Nova".
  await page.goto(`${demo!.workspacePath}/chat`);
  await page.getByRole('link', { name: /^Nova\b/ }).click();
  await expect(page.getByRole('combobox', { name: 'Scrivi a Nova' })).toBeVisible();
  await demo!.context.close();
});

test('a run in Settings → Usage reads as sentences and fits the phone', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no demo agent to ask.');
  const page = await demo!.context.newPage();

  // A run to read: Nova (offline model) answers in the demo DM.
  await page.goto(`${demo!.workspacePath}/chat`);
  await page.getByRole('link', { name: /^Nova\b/ }).click();
  await page.getByRole('combobox', { name: 'Message Nova' }).fill('How many bookings do we have today?');
  await page.getByRole('button', { name: 'Send' }).click();

  await page.goto(`${demo!.workspacePath}/settings/usage`);
  const firstRun = page.getByRole('button', { name: /^Nova/ }).first();
  await expect(async () => {
    await page.reload();
    await expect(firstRun).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await firstRun.click();
  const detail = page.locator(`#${await firstRun.getAttribute('aria-controls')}`);
  await expect(detail.getByText('Nova answered in a direct message')).toBeVisible();
  await expect(detail).toContainText('How it ended');
  await expect(detail).toContainText('What it did');
  const text = await detail.innerText();
  expect(text).not.toMatch(/[{}]|"\w+":|schema|Invalid input|undefined/);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(testInfo.project.use.viewport!.width);
  await demo!.context.close();
});
