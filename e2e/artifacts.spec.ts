import { mkdir } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from '@playwright/test';
import { newPerson, signUp, uniqueEmail } from './helpers';

/**
 * Artifacts and result cards end to end. An agent (offline backend, driven through the agent API
 * with a key its owner created) posts a briefing card, cards of every other type and a document;
 * the owner opens the document, edits it, compares versions and restores one, then clicks card
 * buttons and sees the agent's outcome arrive, approval included. Every card type is kept as a
 * screenshot (attached to the report and under test-results/cards/).
 */

const DOC = ['# Spring newsletter', '', 'Dear friends,', 'the spring menu starts on Monday.', 'See you soon!'].join('\n');

async function json<T>(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<T> {
  const body = (await response.json()) as { success: boolean; data: T; error: unknown };
  expect(body.error, `${response.url()} answered ${response.status()}`).toBeNull();
  return body.data;
}

/** The agent's side: an API client with the agent's session token. */
function agentApi(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    post: <T>(path: string, data: unknown) => request.post(path, { headers, data }).then((r) => json<T>(r)),
    /** Claims what was delivered and returns the card clicks among it. */
    async clicks() {
      const deliveries = await this.post<{ id: string; message: { payload: { cardEvent?: { eventId: string; verb: string } } } }[]>(
        '/api/agents/me/deliveries/claim',
        { connectionId: 'e2e' },
      );
      for (const d of deliveries) await this.post(`/api/agents/me/deliveries/${d.id}/complete`, { connectionId: 'e2e', outcome: 'replied' });
      return deliveries.flatMap((d) => (d.message.payload.cardEvent ? [d.message.payload.cardEvent] : []));
    },
  };
}

async function keepScreenshot(page: Page, testInfo: TestInfo, name: string, title: string) {
  const card = page.getByRole('article', { name: title, exact: true });
  // The shell's fixed bars would cover part of a tall card on a phone.
  const bars = await page.addStyleTag({ content: 'aside.sticky, nav.fixed { visibility: hidden !important; }' });
  const path = `test-results/cards/${testInfo.project.name}-${name}.png`;
  await mkdir('test-results/cards', { recursive: true });
  await card.screenshot({ path, animations: 'disabled' });
  await bars.evaluate((style) => (style as HTMLStyleElement).remove());
  await testInfo.attach(`card-${name}`, { path, contentType: 'image/png' });
}

async function keepPage(page: Page, testInfo: TestInfo, name: string) {
  const path = `test-results/cards/${testInfo.project.name}-${name}.png`;
  await page.screenshot({ path, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('an agent posts cards and a document; the owner edits, compares, restores and clicks through to the outcome', async ({ browser }, testInfo) => {
  test.setTimeout(300_000);
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('cards', testInfo));
  const workspaceId = workspacePath.split('/')[2]!;

  // The owner creates an offline agent and a key for it, and a DM with it (as their software would).
  const agent = await json<{ id: string }>(await page.request.post('/api/agents', { data: { name: 'Nova', role: 'Chief of staff', backend: 'offline', runtime: 'local' } }));
  const { key } = await json<{ key: string }>(await page.request.post(`/api/agents/${agent.id}/keys`, { data: { label: 'e2e' } }));
  const { token } = await json<{ token: string }>(await page.request.post('/api/agent-auth/exchange', { headers: { 'x-agent-key': key } }));
  const conversation = await json<{ id: string }>(await page.request.post('/api/conversations', { data: { kind: 'dm', workspaceId, agentIds: [agent.id] } }));
  const nova = agentApi(page.request, token);

  // The agent publishes a document and its cards.
  const { artifact } = await nova.post<{ artifact: { id: string } }>('/api/agents/me/artifacts', {
    conversationId: conversation.id,
    kind: 'document',
    title: 'Spring newsletter',
    content: DOC,
    body: 'Here is the newsletter draft.',
  });
  await nova.post('/api/agents/me/results', {
    conversationId: conversation.id,
    body: 'Your morning brief.',
    results: [
      {
        type: 'briefing',
        data: {
          title: 'Morning briefing',
          date: '2026-03-09',
          summary: 'A calm Monday: **6 bookings**, one gap at 15:00.',
          metrics: [
            { label: 'Bookings today', value: 6, change: 20, trend: [3, 4, 4, 5, 6] },
            { label: 'Revenue this week', value: '€ 2,140', change: -4, trend: [9, 8, 8, 7, 7] },
          ],
          sections: [
            { heading: 'Needs you', items: [{ text: 'Confirm the Rossi wedding menu', detail: 'They asked on Friday', tone: 'warning' }] },
            { heading: 'Done for you', items: [{ text: 'Sent 3 reminders', tone: 'success' }] },
          ],
        },
        actions: [{ label: 'Fill the 15:00 gap', verb: 'fill_gap', style: 'primary' }],
      },
      { type: 'email', data: { to: ['giulia@example.test'], subject: 'Your table on Friday', body: 'Ciao Giulia,\n\nyour table for four is booked for Friday at 20:30.' } },
    ],
  });
  await nova.post('/api/agents/me/results', {
    conversationId: conversation.id,
    body: 'Everything else I found.',
    results: [
      { type: 'hotel', data: { name: 'Hotel Luce', city: 'Bologna', stars: 4, rating: 8.7, reviews: 1234, pricePerNight: 140, checkIn: '2026-03-10', checkOut: '2026-03-12', amenities: ['Breakfast', 'Spa'] } },
      { type: 'flight', data: { airline: 'ITA Airways', flightNumber: 'AZ 1234', from: 'Bologna', to: 'Paris', departAt: '2026-03-10T07:05:00+01:00', arriveAt: '2026-03-10T09:00:00+01:00', durationMinutes: 115, stops: 0, price: 129 } },
      { type: 'stock_quote', data: { symbol: 'RACE', name: 'Ferrari N.V.', price: 412.5, change: 6.1, changePercent: 1.5, history: [398, 401, 400, 405, 409, 412.5], exchange: 'NYSE' } },
      { type: 'job_offer', data: { title: 'Pastry chef', company: 'Forno Aurora', location: 'Bologna', remote: false, salaryMin: 28000, salaryMax: 34000, skills: ['Lamination', 'Sourdough'] } },
      { type: 'recipe', data: { title: 'Tortellini in brodo', servings: 4, prepMinutes: 90, cookMinutes: 20, ingredients: ['Flour', 'Eggs', 'Pork loin'], steps: ['Make the dough.', 'Fill and fold.', 'Cook in broth.'] } },
      { type: 'booking', data: { customer: 'Marco Bianchi', service: 'Haircut', startsAt: '2026-03-10T09:30:00+01:00', durationMinutes: 45, staff: 'Sara', status: 'confirmed', price: 35 } },
      { type: 'customer', data: { name: 'Giulia Rossi', email: 'giulia@example.test', since: '2023-05-02', visits: 14, lifetimeValue: 980, tags: ['VIP'] } },
      { type: 'deal', data: { title: 'Wedding menu', company: 'Rossi family', value: 4800, stage: 'Proposal', probability: 60, nextStep: 'Call on Wednesday' } },
      { type: 'insight', data: { title: 'Tuesdays are quiet', body: 'Tuesday bookings fell for three weeks.', severity: 'watch', planet: 'booking', metric: { label: 'Tuesday bookings', value: 4, change: -33, trend: [9, 7, 6, 4] } } },
      { type: 'approval', data: { title: 'Send a reminder to Giulia', why: 'Her table is booked for Friday', message: 'Ciao Giulia, a venerdì!', recipient: 'giulia@example.test', channel: 'email' } },
    ],
  });
  await nova.post('/api/agents/me/results', { conversationId: conversation.id, results: [{ type: 'scooter_rental', data: { name: 'Vespa GTS', dailyRate: 45, colours: ['red', 'white'] } }] });

  // The owner opens the conversation's results and files.
  await page.goto(`/w/${workspaceId}/artifacts?conversation=${conversation.id}`);
  const briefing = page.getByRole('article', { name: 'Morning briefing', exact: true });
  await expect(briefing).toBeVisible();
  await expect(briefing.getByText('Confirm the Rossi wedding menu')).toBeVisible();
  for (const [name, title] of [
    ['briefing', 'Morning briefing'],
    ['email', 'Your table on Friday'],
    ['hotel', 'Hotel Luce'],
    ['flight', 'Bologna → Paris'],
    ['stock_quote', 'RACE'],
    ['job_offer', 'Pastry chef'],
    ['recipe', 'Tortellini in brodo'],
    ['booking', 'Haircut'],
    ['customer', 'Giulia Rossi'],
    ['deal', 'Wedding menu'],
    ['insight', 'Tuesdays are quiet'],
    ['approval', 'Send a reminder to Giulia'],
    ['generic', 'Vespa GTS'],
  ] as const) {
    await keepScreenshot(page, testInfo, name, title);
  }

  // The document: open, edit, compare, restore.
  await page.getByRole('link', { name: /Spring newsletter/ }).click();
  await page.waitForURL(`**/artifacts/${artifact.id}`);
  await expect(page.getByRole('heading', { name: 'Spring newsletter', level: 1 })).toBeVisible();
  // The content pane (the comment form below lists the lines too).
  const content = page.locator('[data-print]');
  await expect(content.getByText('the spring menu starts on Monday.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Content').fill(DOC.replace('Monday', 'Tuesday') + '\nMarco');
  await page.getByLabel('What changed (optional)').fill('New start day');
  await page.getByRole('button', { name: 'Save as version 2' }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  await expect(content.getByText('the spring menu starts on Tuesday.')).toBeVisible();

  // A comment on a line of version 2.
  await page.getByLabel('About').selectOption({ label: 'Line 4: the spring menu starts on Tuesday.' });
  await page.getByLabel('Add a comment').fill('Tuesday is right, thanks');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByText('Tuesday is right, thanks')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'Tuesday is right, thanks' })).toContainText('Line 4');

  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByText('Lines added: 2, removed: 1')).toBeVisible();
  await expect(page.locator('[data-op="del"]')).toContainText('the spring menu starts on Monday.');
  await expect(page.locator('[data-op="add"]').first()).toContainText('the spring menu starts on Tuesday.');
  await keepPage(page, testInfo, 'artifact-compare');

  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByText('New start day')).toBeVisible();
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(page.getByText('Version 1 is current again, saved as version 3.')).toBeVisible();
  await expect(content.getByText('the spring menu starts on Monday.')).toBeVisible();
  // Back on version 1's text, the comment made on version 2's changed line shows as outdated.
  await expect(page.getByRole('listitem').filter({ hasText: 'Tuesday is right, thanks' })).toContainText('Version 2, on a line that changed since');
  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByText('Restored version 1')).toBeVisible();
  await keepPage(page, testInfo, 'artifact-history');

  // A card button goes to the agent; the agent's outcome shows on the card.
  await page.goto(`/w/${workspaceId}/artifacts?conversation=${conversation.id}`);
  await briefing.getByRole('button', { name: 'Fill the 15:00 gap' }).click();
  await expect(briefing.getByText('Sent to Nova; waiting for the outcome…')).toBeVisible();
  const [fill] = await nova.clicks();
  expect(fill).toMatchObject({ verb: 'fill_gap' });
  await nova.post(`/api/agents/me/results/actions/${fill!.eventId}`, { status: 'done', outcome: 'Offered 15:00 to Luca from the waitlist.' });
  await expect(briefing.getByText('Offered 15:00 to Luca from the waitlist.')).toBeVisible();

  // Sending an email waits for an OK; approving hands it to the agent, whose outcome shows.
  const email = page.getByRole('article', { name: 'Your table on Friday', exact: true });
  await email.getByRole('button', { name: /^Send/ }).click();
  await expect(email.getByText('Waiting for an OK before Nova does it.')).toBeVisible();
  expect(await nova.clicks()).toEqual([]);
  const approval = page.getByRole('article', { name: 'Send: Your table on Friday', exact: true });
  await expect(approval.getByText('Needs your OK')).toBeVisible();
  await keepScreenshot(page, testInfo, 'approval-gate', 'Send: Your table on Friday');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval.getByText(/Approved by/)).toBeVisible();
  const [send] = await nova.clicks();
  expect(send).toMatchObject({ verb: 'send' });
  await nova.post(`/api/agents/me/results/actions/${send!.eventId}`, { status: 'done', outcome: 'Sent to giulia@example.test' });
  await expect(email.getByText('Sent to giulia@example.test')).toBeVisible();
  await keepScreenshot(page, testInfo, 'email-sent', 'Your table on Friday');

  await context.close();
});
