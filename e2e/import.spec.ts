import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { newPerson, signUp, uniqueEmail } from './helpers';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const FIXTURES = path.join(import.meta.dirname, '../test/fixtures/csv');

test('a new owner imports customers from a file with errors and reads the report row by row; a member sees no import or export', async ({ browser }, testInfo) => {
  // Two sign-ups, an invitation and three axe runs: longer than the default minute on a busy machine.
  test.setTimeout(180_000);
  // A new account and a team workspace of its own (not the demo).
  const owner = await newPerson(browser, testInfo);
  await signUp(owner.page, uniqueEmail('importer', testInfo));
  const created = await owner.page.request.post('/api/workspaces', { data: { name: 'Salone Prova', timeZone: 'Europe/Rome', locale: 'en', sector: 'hair_salon' } });
  expect(created.status()).toBe(201);
  const workspaceId = ((await created.json()) as { data: { id: string } }).data.id;

  // Settings → Data.
  await owner.page.goto(`/w/${workspaceId}/settings`);
  await owner.page.getByRole('link', { name: /^Data/ }).click();
  await expect(owner.page.getByRole('heading', { name: 'Import from CSV' })).toBeVisible();
  expect((await new AxeBuilder({ page: owner.page }).withTags(WCAG).analyze()).violations).toEqual([]);

  // Customers, the file with errors: the guess maps its English headers, the preview counts the rows.
  await owner.page.getByLabel('What the file contains').selectOption('customers');
  await owner.page.getByLabel('CSV file').setInputFiles(path.join(FIXTURES, 'customers-with-errors.csv'));
  await owner.page.getByRole('button', { name: 'Check the file' }).click();
  await expect(owner.page.getByText('Read as UTF-8, columns separated by commas.')).toBeVisible();
  await expect(owner.page.getByLabel('Email', { exact: true })).toHaveValue('3');
  await expect(owner.page.getByLabel('Phone', { exact: true })).toHaveValue('4');
  await expect(owner.page.getByText('Rows in the file: 8. Ready to import: 3. With problems: 5.')).toBeVisible();
  expect((await new AxeBuilder({ page: owner.page }).withTags(WCAG).analyze()).violations).toEqual([]);

  // Import: three added, and each of the five other rows with its reason.
  await owner.page.getByRole('button', { name: 'Import 3 rows' }).click();
  await expect(owner.page.getByText('Customers: 3 added, 0 updated.')).toBeVisible();
  const report = owner.page.getByTestId('import-errors');
  await expect(report.locator(':scope > li')).toHaveCount(5);
  await expect(report).toContainText('Row 3');
  await expect(report).toContainText('Email: Not an email address.');
  await expect(report).toContainText('First name: Empty, but needed.');
  await expect(report).toContainText('Phone: Not a valid phone number.');
  await expect(report).toContainText('Id in the other tool: The same id as row 2: only the first is imported.');
  await expect(report).toContainText('Marketing consent: Use yes or no.');
  expect((await new AxeBuilder({ page: owner.page }).withTags(WCAG).analyze()).violations).toEqual([]);

  // The export holds the three, phones in E.164.
  const exported = await owner.page.request.get(`/api/workspaces/${workspaceId}/exports/customers`);
  expect(exported.status()).toBe(200);
  const csv = await exported.text();
  expect(csv).toContain('E1,Anna Verdi,anna.verdi@example.com,+393330001111,yes,no,no');
  expect(csv.trim().split('\n')).toHaveLength(4);

  // A member joins: no Data link, the page shows no controls, and the API says 403.
  const invited = await owner.page.request.post(`/api/workspaces/${workspaceId}/invitations`, { data: { email: uniqueEmail('member', testInfo), role: 'member' } });
  const { link, invitation } = ((await invited.json()) as { data: { link: string; invitation: { email: string } } }).data;
  const member = await newPerson(browser, testInfo);
  const invitePath = new URL(link).pathname;
  await member.page.goto(invitePath);
  await signUp(member.page, invitation.email, invitePath);
  await member.page.getByRole('button', { name: 'Join Salone Prova' }).click();
  await member.page.waitForURL((url) => url.pathname === `/w/${workspaceId}`);
  await member.page.goto(`/w/${workspaceId}/settings`);
  await expect(member.page.getByRole('link', { name: /^Members/ })).toBeVisible();
  await expect(member.page.getByRole('link', { name: /^Data/ })).toHaveCount(0);
  await member.page.goto(`/w/${workspaceId}/settings/data`);
  await expect(member.page.getByText('Only the owner and admins can import and export data.')).toBeVisible();
  await expect(member.page.getByLabel('CSV file')).toHaveCount(0);
  await expect(member.page.getByRole('main').getByRole('link', { name: 'Customers' })).toHaveCount(0);
  const refused = await member.page.request.post(`/api/workspaces/${workspaceId}/imports`, {
    multipart: { table: 'customers', file: { name: 'c.csv', mimeType: 'text/csv', buffer: Buffer.from('Name\nMallory\n') } },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ success: false, error: { code: 'forbidden' } });
  expect((await member.page.request.get(`/api/workspaces/${workspaceId}/exports/customers`)).status()).toBe(403);

  await owner.context.close();
  await member.context.close();
});
