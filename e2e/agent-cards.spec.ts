import { mkdir } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { demoSession } from './demo-session';

/**
 * The demo's hosted agent Nova runs on the offline model, whose chat rules (lib/bridge/offline.ts)
 * publish cards and artifacts through the same tools a model would use: asked for a briefing, Nova
 * posts a briefing card of what it read; its "Save as document" button goes back to Nova, which saves
 * the briefing as a markdown artifact and says so on the card. Everything arrives live, without a
 * reload. Both projects write into the same demo DM, so each step counts what was there before.
 */

const TITLE = 'Briefing: this direct message';

test('Nova posts a briefing card when asked; its button saves it as a document the owner edits, compares and restores', async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no demo agent to ask.');
  const page = await demo!.context.newPage();

  await page.goto(`${demo!.workspacePath}/chat`);
  await page.getByRole('link', { name: /^Nova\b/ }).click();
  await expect(page.getByRole('heading', { name: 'Nova', level: 1 })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages in Nova' });
  const cards = messages.getByRole('article', { name: TITLE, exact: true });
  const chips = messages.getByRole('link', { name: new RegExp(`^${TITLE}`) });
  const cardsBefore = await cards.count();
  const chipsBefore = await chips.count();

  await page.getByRole('combobox', { name: 'Message Nova' }).fill('Nova, a briefing please');
  await page.getByRole('button', { name: 'Send' }).click();

  // The card, live: what Nova read, counted and listed (the demo DM has Giulia's question about Saturday).
  await expect(cards).toHaveCount(cardsBefore + 1, { timeout: 20_000 });
  const card = cards.last();
  await expect(card.getByRole('heading', { name: TITLE, level: 3 })).toBeVisible();
  await expect(card.getByRole('heading', { name: 'Questions asked' })).toBeVisible();
  await expect(card.getByText('Nova, chi è in lista d’attesa per sabato?').first()).toBeVisible();
  await expect(card.getByText('From people', { exact: true })).toBeVisible();
  const audit = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(audit.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // Its button goes to Nova, whose outcome shows on the card; the document's chip arrives with it.
  await card.getByRole('button', { name: `Save as document: ${TITLE}` }).click();
  await expect(card.getByText(`Saved as the document “${TITLE}”.`)).toBeVisible({ timeout: 20_000 });
  await expect(chips).toHaveCount(chipsBefore + 1);
  // The conversation as it stands: the card's outcome and the chip below it (kept with the card screenshots).
  await chips.last().scrollIntoViewIfNeeded();
  await mkdir('test-results/cards', { recursive: true });
  const shot = `test-results/cards/${testInfo.project.name}-agent-briefing-chat.png`;
  await page.screenshot({ path: shot, animations: 'disabled' });
  await testInfo.attach('agent-briefing-chat', { path: shot, contentType: 'image/png' });

  // The document: open, edit, compare, restore.
  await chips.last().click();
  await page.waitForURL(/\/artifacts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: TITLE, level: 1 })).toBeVisible();
  const content = page.locator('[data-print]');
  await expect(content.getByRole('heading', { name: 'Numbers' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByLabel('Content');
  const original = await editor.inputValue();
  expect(original).toMatch(new RegExp(`^# ${TITLE}\\n`));
  await editor.fill(original.replace('## Numbers', '## Numbers this morning') + '\nCall Marta about Saturday.\n');
  await page.getByLabel('What changed (optional)').fill('Added a call to make');
  await page.getByRole('button', { name: 'Save as version 2' }).click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  await expect(content.getByRole('heading', { name: 'Numbers this morning' })).toBeVisible();

  await page.getByRole('button', { name: 'Compare' }).click();
  await expect(page.getByText(/Lines added: \d+, removed: 1/)).toBeVisible();
  await expect(page.locator('[data-op="del"]')).toContainText('## Numbers');
  await expect(page.locator('[data-op="add"]').filter({ hasText: 'Call Marta about Saturday.' })).toBeVisible();

  await page.getByRole('button', { name: 'History' }).click();
  await expect(page.getByText('Added a call to make')).toBeVisible();
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await page.getByRole('button', { name: 'Restore version 1' }).click();
  await expect(page.getByText('Version 1 is current again, saved as version 3.')).toBeVisible();
  await expect(content.getByRole('heading', { name: 'Numbers', exact: true })).toBeVisible();
  await expect(content.getByText('Call Marta about Saturday.')).toHaveCount(0);
  await demo!.context.close();
});
