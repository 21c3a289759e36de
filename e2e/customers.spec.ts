import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoSession } from './demo-session';
import { newPerson, signUp, uniqueEmail } from './helpers';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

interface Listed {
  id: string;
  name: string;
  nextVisitAt: string | null;
  visitCount: number;
}

/**
 * The Customers screen on the demo salon: search a customer, open them, erase them with the name typed
 * again; they are gone from the list and the search and their page, and their bookings stay, without a
 * name. Each project (phone, desktop) erases a different customer of the same demo.
 */
test('the owner finds a customer, opens them, erases them, and their bookings stay without a name', async ({ browser }, testInfo) => {
  // A page can take seconds on a loaded machine; the steps are many.
  test.setTimeout(180_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no salon with customers.');
  const page = await demo!.context.newPage();
  const workspaceId = demo!.workspacePath.split('/')[2]!;

  await page.goto(`${demo!.workspacePath}/customers`);
  await expect(page.getByRole('heading', { name: 'Customers', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Customers' }).getByRole('link').first()).toContainText(/Last visit|No visits yet/);
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);

  // A regular with a booking to come.
  const listed = ((await (await page.request.get(`/api/workspaces/${workspaceId}/customers`)).json()) as { data: Listed[] }).data;
  const target = listed.find((c) => c.nextVisitAt && c.visitCount >= 2)!;
  expect(target, 'the demo has a regular with a booking to come').toBeTruthy();
  const surname = target.name.split(' ').at(-1)!;

  // Search by surname, open them.
  await page.getByLabel('Search customers').fill(surname);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(/\?q=/);
  // (Two people may share a name: the one picked is opened by its address.)
  await page.locator(`a[href$="/customers/${target.id}"]`).click();
  await page.waitForURL(new RegExp(`/customers/${target.id}$`));
  await expect(page.getByRole('heading', { name: target.name, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Visits', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Messages to them' })).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('customer.png'), fullPage: true });

  const detail = ((await (await page.request.get(`/api/workspaces/${workspaceId}/customers/${target.id}`)).json()) as { data: { visits: { id: string; startsAt: string }[] } })
    .data;
  expect(detail.visits.length).toBeGreaterThan(1);

  // Erase: the button waits for the name.
  const erase = page.getByRole('button', { name: 'Erase for good' });
  await expect(erase).toBeDisabled();
  await page.getByLabel(`Type ${target.name} to confirm`).fill(target.name);
  await erase.click();
  await page.waitForURL(/\/customers\?erased=\d+$/);
  await expect(page.getByRole('status').filter({ hasText: 'The customer was erased.' })).toContainText(`their ${detail.visits.length} bookings stay`);

  // Gone from the list, from the search and from their own page.
  await expect(page.locator(`a[href$="/customers/${target.id}"]`)).toHaveCount(0);
  await page.getByLabel('Search customers').fill(target.name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL(/\?q=/);
  await expect(page.getByRole('list', { name: 'Customers' }).or(page.getByText(`No customer matches “${target.name}”.`)).first()).toBeVisible();
  await expect(page.locator(`a[href$="/customers/${target.id}"]`)).toHaveCount(0);
  expect((await page.goto(`${demo!.workspacePath}/customers/${target.id}`))?.status()).toBe(404);

  // Their bookings are all still there, with no customer and no name.
  const booked: { id: string; customerId: string | null; customerName: string | null }[] = [];
  for (const visit of detail.visits) {
    const from = encodeURIComponent(visit.startsAt);
    const to = encodeURIComponent(new Date(Date.parse(visit.startsAt) + 60_000).toISOString());
    const response = await page.request.get(`/api/workspaces/${workspaceId}/appointments?from=${from}&to=${to}`);
    expect(response.status()).toBe(200);
    booked.push(...((await response.json()) as { data: typeof booked }).data.filter((a) => a.id === visit.id));
  }
  expect(booked).toHaveLength(detail.visits.length);
  expect(booked.every((a) => a.customerId === null && a.customerName === null)).toBe(true);
  await demo!.context.close();
});

test('a member sees customers and records consent, but has no way to erase them (and the API says 403)', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no salon with customers.');
  const owner = await demo!.context.newPage();
  const workspaceId = demo!.workspacePath.split('/')[2]!;

  // The owner invites a member; they sign up from the link and join.
  const email = uniqueEmail('front-desk', testInfo);
  const invited = await owner.request.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email, role: 'member' } });
  expect(invited.status()).toBe(201);
  const invitePath = new URL(((await invited.json()) as { data: { link: string } }).data.link).pathname;
  const member = await newPerson(browser, testInfo);
  await member.page.goto(invitePath);
  await signUp(member.page, email, invitePath);
  await member.page.getByRole('button', { name: /^Join / }).click();
  await member.page.waitForURL((url) => url.pathname === demo!.workspacePath);

  await member.page.goto(`${demo!.workspacePath}/customers`);
  await member.page.getByRole('list', { name: 'Customers' }).getByRole('link').first().click();
  await member.page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
  const customerId = new URL(member.page.url()).pathname.split('/').at(-1)!;
  await expect(member.page.getByRole('heading', { name: 'Consent' })).toBeVisible();
  await expect(member.page.getByText('Only the owner and admins can erase a customer.')).toBeVisible();
  await expect(member.page.getByRole('heading', { name: 'Erase this customer' })).toHaveCount(0);
  await expect(member.page.getByRole('button', { name: 'Erase for good' })).toHaveCount(0);

  // Notes saved by the member stay after a reload.
  const note = `Prefers mornings ${testInfo.project.name}`;
  await member.page.getByLabel('Notes for the team').fill(note);
  await member.page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(member.page.getByText('Saved.')).toBeVisible();
  await member.page.reload();
  await expect(member.page.getByLabel('Notes for the team')).toHaveValue(note);

  const refused = await member.page.request.post(`/api/workspaces/${workspaceId}/customers/${customerId}/erase`, { data: { confirmName: 'x' } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, error: { code: 'forbidden', message: 'Only the owner and admins can erase customers.' } });
  await member.context.close();
  await demo!.context.close();
});
