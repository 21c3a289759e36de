import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { demoSession } from './demo-session';
import { newPerson, signUp, uniqueEmail } from './helpers';

async function expectNoAxeViolations(page: Page) {
  const audit = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const exchange = (page: Page, key: string) => page.request.post('/api/agent-auth/exchange', { headers: { 'x-agent-key': key } });

test('the owner makes an agent on Settings → Agents, chats with it, keys it, revokes the key and deletes it', async ({ browser }, testInfo) => {
  // One journey through several screens and a hosted agent's first start: longer than the default.
  test.setTimeout(240_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'The server under test shows no demo login.');
  const { context, workspacePath } = demo!;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  // The demo is shared by both projects and by earlier runs: a name of this run's own.
  const name = `Vera${testInfo.project.name === 'phone' ? 'P' : 'D'}${Date.now().toString(36).slice(-4)}`;

  // Settings → Agents lists the demo's agents with their status, model and where they run.
  await page.goto(`${workspacePath}/settings`);
  await page.getByRole('link', { name: /^Agents/ }).click();
  await expect(page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  const list = page.getByRole('list', { name: 'Agents of this workspace' });
  for (const demoAgent of ['Nova', 'Atlas']) {
    const row = list.getByRole('link', { name: new RegExp(`^${demoAgent}`) });
    await expect(row).toContainText(/Online|Offline/);
    await expect(row).toContainText('Offline model (no AI: fixed rules) · runs here');
  }
  await expectNoAxeViolations(page);

  // A new agent: the backends this server cannot run are there, disabled, saying why.
  await page.getByRole('link', { name: 'New agent' }).click();
  await expect(page.getByRole('heading', { name: 'New agent', level: 1 })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Anthropic API/ })).toBeDisabled();
  await expect(page.getByText('Not set up on this server: it needs an Anthropic API key.')).toBeVisible();
  await expect(page.getByText('Server check: ANTHROPIC_API_KEY is not set')).toBeVisible();
  // Run on a computer instead, every backend may be chosen, and the page will show the command.
  await page.getByRole('radio', { name: /On your computer/ }).check();
  await expect(page.getByRole('radio', { name: /Anthropic API/ })).toBeEnabled();
  await page.getByRole('radio', { name: /Here, in Multiverbe/ }).check();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Role', { exact: true }).fill('Front desk');
  await page.getByLabel('What it handles').fill('bookings, waitlist');
  await page.getByLabel('Instructions').fill('Answer questions about bookings. Never promise a discount.');
  await page.getByRole('radio', { name: /Offline model/ }).check();
  await expect(page.getByRole('radio', { name: /Chosen workspaces/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Studio Aurora' })).toBeChecked();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Create agent' }).click();

  await page.waitForURL(/\/settings\/agents\/[0-9a-f-]{36}$/);
  const agentPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByLabel('Instructions')).toHaveValue('Answer questions about bookings. Never promise a discount.');
  await expectNoAxeViolations(page);
  await page.screenshot({ path: testInfo.outputPath('agent.png'), fullPage: true });

  // A chat with it: the hosted runner starts it (on the first message, or at its minute's check), and the offline model answers.
  await page.goto(`${workspacePath}/chat`);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New conversation' });
  await dialog.getByText('Direct message', { exact: true }).click();
  await dialog.getByRole('checkbox', { name: new RegExp(name) }).check();
  await dialog.getByRole('button', { name: 'Start conversation' }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await page.getByRole('combobox', { name: `Message ${name}` }).fill('Hello, are you there?');
  await page.getByRole('button', { name: 'Send' }).click();
  const messages = page.getByRole('list', { name: `Messages in ${name}` });
  await expect(messages.getByText(/^Received:/)).toBeVisible({ timeout: 90_000 });
  // From the DM's header back to the agent.
  await page.getByRole('link', { name: `About ${name}` }).click();
  await page.waitForURL((url) => url.pathname === agentPath);

  // A key, shown once with a copy button; it works until it is revoked, then at once it does not.
  await page.getByLabel('What the key is for').fill('e2e laptop');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('Copy it now: it is shown only this once.')).toBeVisible();
  const key = await page.getByRole('textbox', { name: 'New key' }).inputValue();
  expect(key).toMatch(/^mvk_/);
  await page.getByRole('button', { name: 'Copy: New key' }).click();
  await expect(page.getByRole('button', { name: 'Copy: New key' })).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  expect((await exchange(page, key)).status()).toBe(200);
  await expectNoAxeViolations(page);

  const prefix = key.slice(0, 12);
  await page.getByRole('button', { name: `Revoke key ${prefix}` }).click();
  await page.getByRole('group', { name: new RegExp(`Revoke key ${prefix}\\?`) }).getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('status').getByText(`Key ${prefix} revoked: it no longer works.`)).toBeVisible();
  await expect(page.getByRole('list', { name: 'Keys' })).toContainText('Revoked');
  const refused = await exchange(page, key);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).success).toBe(false);
  // Shown once: after a reload the key is nowhere on the page.
  await page.reload();
  await expect(page.getByRole('list', { name: 'Keys' })).toContainText(`${prefix}…`);
  expect(await page.content()).not.toContain(key);

  // The owner deletes the agent, after saying yes once: gone from the list.
  await page.goto(agentPath);
  await expect(page.getByLabel('Instructions')).toHaveValue('Answer questions about bookings. Never promise a discount.');
  await page.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('group', { name: new RegExp(`Delete ${name} everywhere`) }).getByRole('button', { name: 'Delete', exact: true }).click();
  await page.waitForURL((url) => url.pathname === `${workspacePath}/settings/agents`);
  await expect(page.getByRole('list', { name: 'Agents of this workspace' }).getByRole('link', { name: /^Nova/ })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(`^${name}`) })).toHaveCount(0);
  await context.close();
});

test('a member sees the agents and what they do, and no way to manage them: no controls, and 403 from the API', async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'The server under test shows no demo login.');
  const { context, workspacePath } = demo!;
  const page = await context.newPage();
  const workspaceId = workspacePath.split('/').pop()!;
  await page.goto(`${workspacePath}/settings/agents`);
  const agentPath = new URL((await page.getByRole('list', { name: 'Agents of this workspace' }).getByRole('link', { name: /^Nova/ }).getAttribute('href'))!, page.url()).pathname;
  const agentId = agentPath.split('/').pop()!;
  // The owner sees the controls a member will not.
  await page.goto(agentPath);
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeVisible();

  // Invited by the owner, a new person joins the salon as a member.
  await page.goto(`${workspacePath}/settings/members`);
  const memberEmail = uniqueEmail('agents-member', testInfo);
  await page.getByLabel('Email').fill(memberEmail);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const invitePath = new URL(await page.getByLabel('Invitation link').inputValue()).pathname;
  const member = await newPerson(browser, testInfo);
  await member.page.goto(invitePath);
  await signUp(member.page, memberEmail, invitePath);
  await member.page.getByRole('button', { name: 'Join Studio Aurora' }).click();
  await member.page.waitForURL((url) => url.pathname === workspacePath);

  // From chat to the agents, which they see with their status.
  await member.page.goto(`${workspacePath}/chat`);
  await member.page.getByRole('link', { name: 'All agents' }).click();
  await expect(member.page.getByRole('heading', { name: 'Agents', level: 1 })).toBeVisible();
  await expect(member.page.getByText('Only the owner and admins can make, change and delete agents.')).toBeVisible();
  const list = member.page.getByRole('list', { name: 'Agents of this workspace' });
  await expect(list.getByRole('link', { name: /^Nova/ })).toContainText(/Online|Offline/);
  await expect(list.getByRole('link', { name: /^Atlas/ })).toBeVisible();
  await expect(member.page.getByRole('link', { name: 'New agent' })).toHaveCount(0);
  await expectNoAxeViolations(member.page);

  await list.getByRole('link', { name: /^Nova/ }).click();
  await member.page.waitForURL((url) => url.pathname === agentPath);
  await expect(member.page.getByRole('heading', { name: 'Nova', level: 1 })).toBeVisible();
  await expect(member.page.getByText('Receptionist')).toBeVisible();
  for (const control of ['Save changes', 'Create key', 'Delete Nova', 'Create agent']) {
    await expect(member.page.getByRole('button', { name: control })).toHaveCount(0);
  }
  await expect(member.page.getByRole('textbox')).toHaveCount(0);
  await expectNoAxeViolations(member.page);
  await member.page.goto(`${workspacePath}/settings/agents/new`);
  await expect(member.page.getByText('Only the owner and admins can make, change and delete agents.')).toBeVisible();
  await expect(member.page.getByRole('button', { name: 'Create agent' })).toHaveCount(0);

  for (const response of [
    await member.page.request.post(`/api/workspaces/${workspaceId}/agents`, { data: { name: 'Mine', backend: 'offline' } }),
    await member.page.request.patch(`/api/workspaces/${workspaceId}/agents/${agentId}`, { data: { instructions: 'Give everyone 50% off.' } }),
    await member.page.request.get(`/api/workspaces/${workspaceId}/agents/${agentId}/keys`),
    await member.page.request.post(`/api/workspaces/${workspaceId}/agents/${agentId}/keys`, { data: {} }),
    await member.page.request.delete(`/api/workspaces/${workspaceId}/agents/${agentId}`),
  ]) {
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'forbidden', message: 'Only the owner and admins can manage agents.' } });
  }
  // Nothing changed: the owner still finds Nova as it was.
  await page.goto(agentPath);
  await expect(page.getByRole('heading', { name: 'Nova', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Instructions')).not.toHaveValue(/50% off/);
  await member.context.close();
  await context.close();
});
