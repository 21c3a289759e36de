import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';
import { hostedAgents, newPerson, signUp, uniqueEmail } from './helpers';

test('software asks an agent through MCP, and the owner finds the task, marked via MCP, and the answer in the DM', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('mcp', testInfo));
  await hostedAgents(page);

  // A key from Settings → API keys, which also shows the MCP address.
  await page.goto(`${workspacePath}/settings/api-keys`);
  const address = (await page.locator('code', { hasText: '/api/mcp' }).textContent())!;
  expect(address).toBe(`${testInfo.project.use.baseURL}/api/mcp`);
  await page.getByLabel('Key name').fill('Booking site');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = await page.getByRole('textbox', { name: 'Booking site' }).inputValue();

  // The owner's software, through the official SDK over HTTP.
  const client = new Client({ name: 'booking-site', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(address), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name).sort()).toEqual(['ask_atlas', 'ask_nova', 'get_task']);
  const result = await client.callTool({ name: 'ask_nova', arguments: { task: 'How are bookings this week?', wait_seconds: 30 } });
  await client.close();
  const answer = result.structuredContent as { status: string; answer: string; link: string };
  expect(answer.status).toBe('answered');
  expect(answer.answer).toMatch(/^- Bookings today: \*\*\d+\*\*/m);

  // The task is a real message in the owner's DM with Nova, and Nova's answer is there too.
  await page.goto(answer.link);
  const messages = page.getByRole('list', { name: 'Messages in Nova' });
  const task = messages.getByRole('listitem').filter({ hasText: 'How are bookings this week?' });
  await expect(task).toContainText('via MCP · Booking site');
  await expect(messages.getByText(/^Bookings today:/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('mcp-dm.png') });
  await context.close();
});
