import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoSession } from './demo-session';
import { newPerson, signUp, uniqueEmail } from './helpers';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

test('the owner reads the leaderboard against pace, filters the pipeline by a rep and opens a deal’s call script', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no sales team.');
  const page = await demo!.context.newPage();
  await page.goto(`${demo!.workspacePath}/pipeline`);

  const board = page.getByRole('list', { name: 'Sales team' });
  const marco = board.getByRole('listitem').filter({ hasText: 'Marco Bianchi' });
  await expect(marco).toBeVisible();
  expect(await board.getByRole('listitem').count()).toBeGreaterThanOrEqual(3);
  // Pace is said in words next to its colour.
  await expect(marco.locator('[data-pace]')).toHaveText(/^(Quota met|On pace|Behind pace)$/);
  await expect(marco).toContainText(/\d+% of quota/);
  // The owner sees everyone's commission (other runs may have put more people on the plan).
  const commissions = page.getByRole('list', { name: 'Commissions' });
  for (const name of ['Giulia Rossi', 'Marco Bianchi', 'Sara Conti']) await expect(commissions.getByRole('listitem').filter({ hasText: name })).toHaveCount(1);

  const marcoId = (await marco.getAttribute('data-person-id'))!;
  await marco.getByRole('button', { name: 'Show the deals of Marco Bianchi' }).click();
  await expect(page.getByLabel('Owner', { exact: true })).toHaveValue(marcoId);
  const cards = page.locator('[data-stage-id] [data-deal-id]');
  await expect(cards.first()).toBeVisible();
  await expect(page.locator(`[data-stage-id] [data-deal-id]:not([data-owner-id="${marcoId}"])`)).toHaveCount(0);

  const card = cards.first();
  const title = (await card.locator('h4').textContent())!;
  await card.getByRole('button', { name: `Call script for ${title}` }).click();
  const script = card.getByRole('region', { name: `Call script for ${title}` });
  await expect(script).toContainText('Marco Bianchi');
  await expect(script).not.toContainText('{{');
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
  await demo!.context.close();
});

test('a rep sees only their own commission', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no sales team.');
  const owner = await demo!.context.newPage();
  const workspaceId = demo!.workspacePath.split('/')[2]!;

  const email = uniqueEmail('rep', testInfo);
  const invited = await owner.request.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email, role: 'member' } });
  expect(invited.status()).toBe(201);
  const invitePath = new URL(((await invited.json()) as { data: { link: string } }).data.link).pathname;
  const rep = await newPerson(browser, testInfo);
  await rep.page.goto(invitePath);
  await signUp(rep.page, email, invitePath);
  await rep.page.getByRole('button', { name: /^Join / }).click();
  await rep.page.waitForURL((url) => url.pathname === demo!.workspacePath);

  const overview = (await (await owner.request.get(`/api/workspaces/${workspaceId}/sales/overview`)).json()) as {
    data: { commissions: Array<{ planId: string }> };
  };
  const members = (await (await owner.request.get(`/api/workspaces/${workspaceId}/members`)).json()) as { data: Array<{ userId: string; email: string }> };
  const userId = members.data.find((m) => m.email === email)!.userId;
  const assigned = await owner.request.put(`/api/workspaces/${workspaceId}/sales/commission/assignments`, { data: { userId, planId: overview.data.commissions[0]!.planId } });
  expect(assigned.status()).toBe(200);

  await rep.page.goto(`${demo!.workspacePath}/pipeline`);
  const mine = rep.page.getByRole('list', { name: 'Your commission' });
  await expect(mine.getByRole('listitem')).toHaveCount(1);
  await expect(mine.locator(`[data-commission-of="${userId}"]`)).toContainText(/earned on plan Standard/);
  await expect(rep.page.getByRole('list', { name: 'Commissions' })).toHaveCount(0);
  // Nothing to edit for a rep: no way to the quota, territory and commission editors.
  await expect(rep.page.getByRole('link', { name: 'Quotas, territories and commissions' })).toHaveCount(0);
  // The API says the same: nobody else's commission reaches a rep.
  const seen = (await (await rep.page.request.get(`/api/workspaces/${workspaceId}/sales/overview`)).json()) as { data: { commissions: Array<{ userId: string }> } };
  expect(seen.data.commissions.map((c) => c.userId)).toEqual([userId]);
  expect((await new AxeBuilder({ page: rep.page }).withTags(WCAG).analyze()).violations).toEqual([]);
  // Opened by its address, the editors' page tells a rep who sets these, and offers nothing to fill in.
  await rep.page.goto(`${demo!.workspacePath}/pipeline/setup`);
  await expect(rep.page.getByText(/^Only the owner and admins set quotas/)).toBeVisible();
  await expect(rep.page.getByRole('form')).toHaveCount(0);
  await rep.context.close();
  await demo!.context.close();
});
