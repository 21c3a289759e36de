import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import twilio from 'twilio';
import { newPerson, signUp, uniqueEmail } from './helpers';

const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * A reply comes back: an owner connects Twilio (Settings → Messages' API), an SMS from a number nobody
 * knows arrives at the workspace's webhook signed as Twilio signs it, and the owner finds it in the chat
 * as its own customer conversation. A wrong signature is refused.
 */
test('an SMS from a customer shows to the owner as a customer conversation', async ({ browser }, testInfo) => {
  const { context, page } = await newPerson(browser, testInfo);
  const workspacePath = await signUp(page, uniqueEmail('replies', testInfo));
  const workspaceId = workspacePath.split('/')[2]!;
  const authToken = 'e2e-twilio-token-0123456789';
  const saved = await page.request.put(`/api/workspaces/${workspaceId}/channels`, {
    data: { twilio: { accountSid: `AC${'0123456789abcdef'.repeat(2)}`, authToken, smsFrom: '+15005550006' } },
  });
  expect(saved.status()).toBe(200);

  const from = `+4477009${String(Date.now()).slice(-5)}`;
  const url = new URL(`/api/webhooks/twilio/inbound/${workspaceId}`, testInfo.project.use.baseURL).href;
  const params = { MessageSid: `SM${'0'.repeat(20)}${Date.now()}`.slice(0, 34), From: from, To: '+15005550006', Body: 'Are you open on Sunday?' };
  const post = (signature: string) =>
    page.request.post(url, { form: params, headers: { 'x-twilio-signature': signature } });
  expect((await post('bm90IGEgc2lnbmF0dXJl')).status()).toBe(403);
  expect((await post(twilio.getExpectedTwilioSignature(authToken, url, params))).status()).toBe(200);

  await page.goto(`${workspacePath}/chat`);
  const conversation = page.getByRole('link', { name: new RegExp(`Customer · \\${from}`) });
  await expect(conversation).toBeVisible();
  await conversation.click();
  await expect(page.getByText('Are you open on Sunday?')).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(WCAG).analyze()).violations).toEqual([]);
  await context.close();
});
