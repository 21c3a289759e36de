import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { demoSession } from './demo-session';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const axeViolations = async (page: Page) => (await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations;

/** Previews the territory form's change, checks the preview says what the save then moves, and saves it. */
async function previewAndApply(page: Page, form: ReturnType<Page['getByRole']>) {
  await form.getByRole('button', { name: 'Preview what moves' }).click();
  const preview = form.getByRole('status', { name: 'Preview of the reassignment' });
  await expect(preview).toBeVisible();
  const listed = await preview.getByRole('listitem').count();
  await expect(form.getByRole('button', { name: `Save and move (${listed})` })).toBeVisible();
  return { preview, listed, apply: () => form.getByRole('button', { name: `Save and move (${listed})` }).click() };
}

test('the owner sets a rep’s quota and changes a territory after seeing what it would move', async ({ browser }, testInfo) => {
  const demo = await demoSession(browser, testInfo);
  test.skip(!demo, 'This app shows no demo login (only embedded installs do), so there is no sales team.');
  const page = await demo!.context.newPage();
  await page.goto(`${demo!.workspacePath}/pipeline`);
  await page.getByRole('link', { name: 'Quotas, territories and commissions' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Quotas, territories and commissions' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // A quota for Marco this month, which the leaderboard then measures him against.
  const quota = page.getByRole('form', { name: 'Quotas' });
  await quota.getByLabel('Quota for').selectOption({ label: 'Marco Bianchi' });
  await quota.getByLabel('Target (€)').fill('4321');
  await quota.getByRole('button', { name: 'Save quota' }).click();
  await expect(page.getByText('Quota saved.')).toBeVisible();

  // Brianza also takes Bergamo: the preview names what would go to Sara (and anything else the active
  // model has out of place), and the save moves exactly that many.
  await page.locator('summary', { hasText: /^Brianza · / }).click();
  const brianza = page.getByRole('form', { name: 'Edit territory Brianza' });
  await brianza.getByRole('button', { name: 'Add a rule' }).click();
  await brianza.getByLabel('Rule 2: looks at').selectOption({ label: 'City' });
  await brianza.getByLabel('Rule 2: value').fill('Bergamo');
  const added = await previewAndApply(page, brianza);
  await expect(added.preview).toContainText(`Deals and leads that would move: ${added.listed}`);
  expect(await added.preview.getByRole('listitem').filter({ hasText: 'to Sara Conti (Brianza)' }).count()).toBeGreaterThan(0);
  expect(await axeViolations(page)).toEqual([]);
  await added.apply();
  await expect(page.getByText(`Territory saved. Moved: ${added.listed}.`)).toBeVisible();
  await expect(page.locator('summary', { hasText: /^Brianza · / })).toHaveText('Brianza · Sara Conti · rules: 2');

  // And back as it was (the demo is shared by the other specs): Bergamo's deals return to Bergamo's owner.
  await brianza.getByRole('button', { name: 'Remove rule 2' }).click();
  const removed = await previewAndApply(page, brianza);
  expect(await removed.preview.getByRole('listitem').filter({ hasText: 'from Sara Conti to ' }).count()).toBeGreaterThan(0);
  await removed.apply();
  await expect(page.locator('summary', { hasText: /^Brianza · / })).toHaveText('Brianza · Sara Conti · rules: 1');

  await page.locator('#main').getByRole('link', { name: 'Pipeline' }).click();
  const marco = page.getByRole('list', { name: 'Sales team' }).getByRole('listitem').filter({ hasText: 'Marco Bianchi' });
  await expect(marco).toContainText(/% of quota \(.+ of €4,321\)/);
  await demo!.context.close();
});
