import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, TestInfo } from '@playwright/test';
import { afterEach, describe, expect, it } from 'vitest';
import { demoSession } from '../e2e/demo-session';

// A server whose sign-in page shows no demo login: its page's "Use the demo account" button counts 0.
const browser = { newContext: async () => ({ newPage: async () => ({ goto: async () => null, getByRole: () => ({ count: async () => 0 }) }), close: async () => {} }) };
const saved = process.env.E2E_EXPECT_DEMO;
afterEach(() => (saved === undefined ? delete process.env.E2E_EXPECT_DEMO : (process.env.E2E_EXPECT_DEMO = saved)));

describe('a demo spec on a server without a demo login (e2e/demo-session.ts)', () => {
  it('skips outside npm test, and fails under npm test (E2E_EXPECT_DEMO=1), whose servers all seed the demo', async () => {
    const outputDir = await mkdtemp(path.join(tmpdir(), 'demo-session-'));
    const testInfo = { project: { outputDir, use: { baseURL: 'http://127.0.0.1:3999' } } } as unknown as TestInfo;
    try {
      delete process.env.E2E_EXPECT_DEMO;
      expect(await demoSession(browser as unknown as Browser, testInfo)).toBeNull();
      process.env.E2E_EXPECT_DEMO = '1';
      await expect(demoSession(browser as unknown as Browser, testInfo)).rejects.toThrow(/E2E_EXPECT_DEMO=1 but .* shows no demo login/);
    } finally {
      await rm(outputDir, { recursive: true, force: true });
    }
  });
});
