import { expect, test } from '@playwright/test';
import { expectNoAccess, newPerson, signUp, uniqueEmail } from './helpers';

test('sign up, create a team, invite a second person who joins; a third cannot open it', async ({ browser }, testInfo) => {
  // The owner signs up and lands in their personal workspace.
  const owner = await newPerson(browser, testInfo);
  await signUp(owner.page, uniqueEmail('owner', testInfo));
  await expect(owner.page.getByRole('button', { name: /Switch workspace/ })).toContainText('Personal');

  // They create a team workspace from the switcher.
  await owner.page.getByRole('button', { name: /Switch workspace/ }).click();
  await owner.page.getByRole('link', { name: 'Create workspace' }).click();
  await owner.page.getByLabel('Workspace name').fill('Studio Luce');
  await owner.page.getByRole('button', { name: 'Create workspace' }).click();
  await owner.page.waitForURL(/\/w\/[0-9a-f-]{36}$/);
  const teamPath = new URL(owner.page.url()).pathname;
  await expect(owner.page.getByRole('button', { name: /Switch workspace/ })).toContainText('Studio Luce');

  // They invite a second person from Settings → Members.
  const inviteeEmail = uniqueEmail('invitee', testInfo);
  await owner.page.goto(`${teamPath}/settings/members`);
  await owner.page.getByLabel('Email').fill(inviteeEmail);
  await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = await owner.page.getByLabel('Invitation link').inputValue();
  const invitePath = new URL(link).pathname;

  // The invitee signs up from the link, joins, and sees the workspace.
  const invitee = await newPerson(browser, testInfo);
  await invitee.page.goto(invitePath);
  await signUp(invitee.page, inviteeEmail, invitePath);
  await invitee.page.getByRole('button', { name: 'Join Studio Luce' }).click();
  await invitee.page.waitForURL((url) => url.pathname === teamPath);
  await expect(invitee.page.getByRole('button', { name: /Switch workspace/ })).toContainText('Studio Luce');

  // The owner sees them in the member list.
  await owner.page.reload();
  await expect(owner.page.getByText(inviteeEmail)).toBeVisible();

  // A third person cannot open the team workspace's URL.
  const stranger = await newPerson(browser, testInfo);
  await signUp(stranger.page, uniqueEmail('stranger', testInfo));
  await expectNoAccess(stranger.page, teamPath);
  await expectNoAccess(stranger.page, `${teamPath}/settings/members`);

  for (const person of [owner, invitee, stranger]) await person.context.close();
});

test('a signed-out visitor is sent to sign in and comes back after it', async ({ page }) => {
  await page.goto('/w/00000000-0000-4000-8000-000000000000');
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});
