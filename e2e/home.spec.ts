import { expect, test, type Page } from '@playwright/test';
import { demoSession } from './demo-session';
import { newPerson, PASSWORD, uniqueEmail } from './helpers';

test('the owner reads the Home and approves a card, which moves to Done', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no workspace with planet data.');
  const page = await demo!.context.newPage();
  await page.goto(demo!.workspacePath);

  await expect(page.getByRole('region', { name: 'Today at a glance' })).toContainText(/bookings? today/);
  for (const section of ['Needs your OK', 'Done for you', 'Planets']) await expect(page.getByRole('heading', { name: section, level: 2 })).toBeVisible();
  const planets = page.getByRole('region', { name: 'Planets' }).getByRole('listitem');
  await expect(planets).toHaveCount(6);
  await expect(planets.first()).toContainText(/Good|Watch|Act|No data yet/);

  // The first card: what, why and the exact message, with its two buttons.
  const needs = page.getByRole('region', { name: 'Needs your OK' });
  // A proposal card (a "do this automatically?" suggestion may come first: it has no message).
  const card = needs.getByRole('article').filter({ has: page.getByRole('blockquote') }).first();
  const what = (await card.getByRole('heading', { level: 3 }).textContent())!;
  await expect(card.getByRole('blockquote')).not.toBeEmpty();
  await card.getByRole('button', { name: `Approve: ${what}` }).click();

  // Optimistic: the card is replaced at once by the confirmation with its undo.
  await expect(needs.getByText(`Approved: ${what}`)).toBeVisible();
  await expect(needs.getByRole('heading', { name: what })).toHaveCount(0);
  // Then it is under Done for you, with its own undo while the message is queued.
  const done = page.getByRole('region', { name: 'Done for you' });
  await expect(async () => {
    for (const summary of await done.locator('summary').all()) {
      if ((await summary.locator('xpath=..').getAttribute('open')) === null) await summary.click();
    }
    await expect(done.getByText(what, { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });

  // A planet opens its page.
  await planets.first().getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Metrics' })).toBeVisible();
  await demo!.context.close();
});

/** A person signed up through the API in a context of their own (no sign-in rate limit involved). */
async function person(browser: Parameters<typeof newPerson>[0], testInfo: Parameters<typeof newPerson>[1], name: string) {
  const { context, page } = await newPerson(browser, testInfo);
  const email = uniqueEmail(name, testInfo);
  expect((await page.request.post('/api/auth/sign-up', { data: { email, password: PASSWORD } })).status()).toBe(201);
  return { context, page, email };
}

async function join(owner: Page, workspaceId: string, invitee: { page: Page; email: string }, role: 'admin' | 'member') {
  const invited = await owner.request.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email: invitee.email, role } });
  const { link } = (await invited.json()).data as { link: string };
  const accepted = await invitee.page.request.post('/api/invitations/accept', { data: { token: link.split('/invite/')[1] } });
  expect(accepted.status()).toBe(200);
}

test('an admin switches a planet to automatic; a member cannot open Autonomy', async ({ browser }, testInfo) => {
  const owner = await person(browser, testInfo, 'owner');
  const created = await owner.page.request.post('/api/workspaces', { data: { name: 'Studio Luce' } });
  const workspaceId = ((await created.json()).data as { id: string }).id;
  const admin = await person(browser, testInfo, 'admin');
  const member = await person(browser, testInfo, 'member');
  await join(owner.page, workspaceId, admin, 'admin');
  await join(owner.page, workspaceId, member, 'member');

  await admin.page.goto(`/w/${workspaceId}/settings`);
  await admin.page.getByRole('link', { name: /Autonomy/ }).click();
  await expect(admin.page.getByRole('heading', { name: 'Autonomy', level: 1 })).toBeVisible();
  const booking = admin.page.getByRole('group', { name: 'Autonomy of Booking' });
  await expect(booking.getByRole('radio', { name: 'Ask first' })).toBeChecked();
  await booking.getByRole('radio', { name: 'Automatic' }).check();
  await expect(admin.page.getByRole('status').getByText('Saved.')).toBeVisible();
  await admin.page.reload();
  await expect(admin.page.getByRole('group', { name: 'Autonomy of Booking' }).getByRole('radio', { name: 'Automatic' })).toBeChecked();

  // A member finds no Autonomy in Settings, and the page itself says who can change it.
  await member.page.goto(`/w/${workspaceId}/settings`);
  await expect(member.page.getByRole('link', { name: 'Members' })).toBeVisible();
  await expect(member.page.getByRole('link', { name: /Autonomy/ })).toHaveCount(0);
  await member.page.goto(`/w/${workspaceId}/settings/autonomy`);
  await expect(member.page.getByRole('heading', { name: 'Only the owner and admins can change autonomy' })).toBeVisible();
  await expect(member.page.getByRole('radio')).toHaveCount(0);
  const refused = await member.page.request.patch(`/api/workspaces/${workspaceId}/autonomy`, { data: { planet: 'booking', autonomy: 'off' } });
  expect(refused.status()).toBe(403);

  for (const p of [owner, admin, member]) await p.context.close();
});
