import { describe, expect, it } from 'vitest';
import { asService } from '@/lib/db';
import { DEMO_EMAIL } from '@/lib/auth';
import { seedDemo } from '@/lib/demo';
import { composeDailyBrief, planetDetail } from '@/lib/home';
import { createTranslator } from '@/lib/i18n';
import { it as itDict } from '@/lib/i18n/messages/it';
import { healthReason, planetMetricsForAgent, PLANETS } from '@/lib/planets';
import { setupTestDatabase } from '@/test/db';
import { figuresReply } from './offline';

setupTestDatabase();

const italian = createTranslator(itDict, 'it');

describe('one health rule for the Home, the planet page and the agents', () => {
  it('gives each demo planet the same status and the same reasons on all three', async () => {
    const now = new Date();
    const { workspaceId } = (await seedDemo(now))!;
    const [owner] = await asService((tx) => tx.query<{ id: string }>(`select id from auth.users where email = $1`, [DEMO_EMAIL]));
    const user = { id: owner!.id, email: DEMO_EMAIL };
    const [agent] = await asService((tx) => tx.query<{ agent_id: string }>(`select agent_id from public.workspace_agents where workspace_id = $1 limit 1`, [workspaceId]));

    const brief = await composeDailyBrief(user, workspaceId, { now });
    let notGood = 0;
    for (const planet of PLANETS) {
      const home = brief.planets.find((p) => p.planet === planet)!;
      const page = await planetDetail(user, workspaceId, planet, now);
      const told = await planetMetricsForAgent(agent!.agent_id, workspaceId, planet, now);

      expect(page.metrics.health, planet).toBe(home.health);
      expect(told.health, planet).toBe(home.health);
      expect(home.reason, planet).toEqual(page.metrics.findings[0] ?? null);
      expect(told.findings, planet).toEqual(page.metrics.findings);
      expect(told.reasons, planet).toHaveLength(page.metrics.findings.length);
      if (home.health !== 'good') notGood++;

      // What the agent writes back: the same findings, in the page's own words, in English and Italian.
      const english = figuresReply(told, 'en');
      for (const reason of told.reasons) expect(english).toContain(reason);
      const italianReply = figuresReply(told, 'it');
      for (const finding of page.metrics.findings) expect(italianReply.toLowerCase()).toContain(healthReason(finding, 'Parrucchiere', 'it', italian).toLowerCase());
    }
    // The demo is not all good (its sales pipeline has idle deals), so the comparison above compared reasons.
    expect(notGood).toBeGreaterThan(0);
  });
});
