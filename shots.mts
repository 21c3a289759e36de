import { chromium } from '@playwright/test';
const BASE='http://127.0.0.1:3499';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const ctx = await b.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
const page = await ctx.newPage();
await page.goto(`${BASE}/sign-in`);
await page.getByLabel('Email').fill('owner@studio-aurora.demo');
await page.getByLabel('Password').fill(process.argv[2]!);
await page.getByRole('button', { name: /sign in/i }).click();
await page.waitForURL(/\/w\//);
const ws = ((await (await page.request.get(BASE + '/api/workspaces')).json()) as any).data.find((w: any) => w.name === 'Studio Aurora').id;
for (const [name, path] of [['home',''],['settings','/settings'],['planets','/planets'],['booking','/planets/booking'],['chat','/chat'],['usage','/settings/usage'],['topics','/topics']]) {
  await page.goto(`${BASE}/w/${ws}${path}`); await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `/tmp/shot-${name}.png`, fullPage: true });
}
await b.close();
