import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { hostedAgents, newPerson, signUp, uniqueEmail } from './helpers';

test('a person writes in a channel, a hosted agent answers live, and its side thread card appears, expands and resolves', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('chat', testInfo));
  await hostedAgents(page);

  // A channel with both agents, from the chat screen.
  await page.goto(`${workspacePath}/chat`);
  await expect(page.getByRole('heading', { name: 'No conversations yet' })).toBeVisible();
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New conversation' });
  await dialog.getByLabel('Channel name').fill('general');
  await dialog.getByRole('checkbox', { name: /Nova/ }).check();
  await dialog.getByRole('checkbox', { name: /Atlas/ }).check();
  await dialog.getByRole('button', { name: 'Create channel' }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: '#general' })).toBeVisible();

  // Mention autocomplete: "@No" offers Nova; Tab picks it.
  const composer = page.getByRole('combobox', { name: 'Message #general' });
  await composer.pressSequentially('@No');
  await expect(page.getByRole('option', { name: /Nova/ })).toBeVisible();
  await composer.press('Tab');
  await expect(composer).toHaveValue('@Nova ');
  await composer.pressSequentially('ask Atlas: are we open on Sunday?');
  await page.getByRole('button', { name: 'Send' }).click();

  // Live, without reloading: the message, then Nova's answer, which opened a side thread.
  const messages = page.getByRole('list', { name: 'Messages in #general' });
  await expect(messages.getByText('ask Atlas: are we open on Sunday?')).toBeVisible();
  await expect(messages.getByText('I asked Atlas in a side thread.')).toBeVisible({ timeout: 20_000 });
  const card = messages.getByRole('button', { name: /Side thread/ });
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('aria-expanded', 'false');
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  const thread = page.getByRole('list', { name: 'Messages in the side thread' });
  await expect(thread.getByText('are we open on Sunday?', { exact: true })).toBeVisible();
  const audit = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Atlas answers in the thread; Nova resolves it: the summary lands in the channel and the card says so.
  await expect(card).toContainText('Resolved', { timeout: 20_000 });
  await expect(messages.getByText(/^Atlas answered:/)).toBeVisible();
  await expect(thread.getByText(/^Received:/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('chat.png') });
  await context.close();
});

test('in a DM a person edits, reacts to and deletes their own message, and the list shows the agent online', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('dm', testInfo));
  await hostedAgents(page);
  await page.goto(`${workspacePath}/chat`);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'New conversation' });
  await dialog.getByText('Direct message', { exact: true }).click();
  await dialog.getByRole('checkbox', { name: /Nova/ }).check();
  await dialog.getByRole('button', { name: 'Start conversation' }).click();
  await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Nova' })).toBeVisible();

  const composer = page.getByRole('combobox', { name: 'Message Nova' });
  await composer.fill('Hello **Nova**, see https://example.com');
  await page.getByRole('button', { name: 'Send' }).click();
  const messages = page.getByRole('list', { name: 'Messages in Nova' });
  // Markdown, safely: bold text and a link, no raw asterisks.
  await expect(messages.getByRole('link', { name: 'https://example.com' }).first()).toHaveAttribute('rel', /noopener/);
  await expect(messages.locator('strong', { hasText: 'Nova' }).first()).toBeVisible();
  await expect(messages.getByText(/^Received:/)).toBeVisible({ timeout: 20_000 });

  // Asked about the business, the agent answers with the planet's figures, read through the agent API.
  await composer.fill('How are bookings this week?');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(messages.getByText(/^Bookings today:/)).toBeVisible({ timeout: 20_000 });

  // Edit, react and delete through the message's actions.
  const mine = messages.getByRole('listitem').filter({ hasText: 'Hello' }).first();
  await mine.getByRole('button', { name: /Actions for the message/ }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await mine.getByRole('textbox', { name: 'Edit message' }).fill('Hello again');
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine).toContainText('Hello again');
  await expect(mine).toContainText('(edited)');

  await mine.getByRole('button', { name: /Actions for the message/ }).click();
  await page.getByRole('button', { name: 'React with 🎉' }).click();
  await expect(mine.getByRole('button', { name: /🎉: 1/ })).toHaveAttribute('aria-pressed', 'true');

  await mine.getByRole('button', { name: /Actions for the message/ }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(messages.getByText('This message was deleted.')).toBeVisible();

  // Back in the list, the DM shows Nova's presence (its bridge heartbeats: online).
  await page.getByRole('link', { name: 'All conversations' }).click();
  await expect(page.getByRole('link', { name: /Nova/ }).first()).toContainText('online');
  await context.close();
});

test('new messages arrive live without moving what you are reading, are announced, and count as unread in the list until seen', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('live', testInfo));
  const workspaceId = workspacePath.split('/')[2]!;
  await hostedAgents(page);
  const agents = (await (await page.request.get(`/api/agents?workspaceId=${workspaceId}`)).json()) as { data: { id: string; name: string }[] };
  const nova = agents.data.find((a) => a.name === 'Nova')!;
  const created = await page.request.post('/api/conversations', { data: { kind: 'dm', workspaceId, agentIds: [nova.id] } });
  const dm = ((await created.json()) as { data: { id: string } }).data;
  const say = (body: string) => page.request.post(`/api/conversations/${dm.id}/messages`, { data: { body } });
  const history = async () =>
    ((await (await page.request.get(`/api/conversations/${dm.id}/messages?limit=100`)).json()) as { data: { messages: { body: string }[] } }).data.messages;
  const count = async () => (await history()).length;

  // More history than one page: 30 questions, each answered by Nova.
  for (let i = 1; i <= 30; i++) await say(`question ${i}`);
  await expect.poll(count, { timeout: 60_000 }).toBe(60);

  await page.goto(`${workspacePath}/chat/${dm.id}`);
  const messages = page.getByRole('list', { name: 'Messages in Nova' });
  await expect(messages.getByText('question 30', { exact: true })).toBeVisible();
  // Scrolled up, reading the oldest message shown.
  await messages.evaluate((list) => list.parentElement!.scrollTo({ top: 0 }));
  // The view opens on the latest 50 messages: the oldest of those is at the top.
  const oldestShown = (await history()).at(-50)!.body;
  const reading = messages.getByRole('listitem').first();
  await expect(reading).toContainText(oldestShown);
  const before = (await reading.boundingBox())!.y;

  await say('one more question');
  await expect(page.getByRole('button', { name: 'New messages below: 1' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[aria-live="polite"]')).toHaveText(/^Nova: Received: “one more question”/);
  // Nothing moved: the same message at the same place.
  await expect(reading).toContainText(oldestShown);
  expect(Math.abs((await reading.boundingBox())!.y - before)).toBeLessThan(1);

  await page.getByRole('button', { name: 'New messages below: 1' }).click();
  await expect(messages.getByText('one more question', { exact: true })).toBeInViewport();

  // Seen at the bottom, so read; a new answer while you are in the list is counted there, live.
  await page.getByRole('link', { name: 'All conversations' }).click();
  const row = page.getByRole('link', { name: /Nova/ }).first();
  await expect(row).not.toContainText('unread');
  await say('and the last one');
  await expect(row).toContainText('1 unread', { timeout: 20_000 });
  await context.close();
});
