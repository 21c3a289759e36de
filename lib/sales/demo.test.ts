import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '@/lib/auth';
import { asService } from '@/lib/db';
import { seedDemo } from '@/lib/demo';
import { setupTestDatabase } from '@/test/db';
import { salesOverview, territoriesView } from '.';

setupTestDatabase();

describe('the demo’s sales team', () => {
  it('has three people with a quarter of won deals, quotas, a commission plan each, scripts and an active territory model', async () => {
    const now = new Date('2026-12-03T09:00:00Z');
    const demo = await seedDemo(now);
    const [owner] = await asService((tx) => tx.query<{ id: string; email: string }>(`select id, email from auth.users where email = $1`, [DEMO_EMAIL]));
    const quarter = await salesOverview(owner!, demo!.workspaceId, { period: 'quarter' }, now);
    expect(quarter.period.startsOn).toBe('2026-10-01');
    expect(quarter.people.map((p) => p.name).sort()).toEqual(['Giulia Rossi', 'Marco Bianchi', 'Sara Conti']);
    for (const person of quarter.people) {
      expect(person.won_count, person.name).toBeGreaterThanOrEqual(5);
      expect(person.quota).toMatchObject({ metric: 'won_value', pace: { status: expect.stringMatching(/^(met|on_pace|behind)$/) } });
    }
    expect(quarter.team.quota).toMatchObject({ metric: 'won_count', target: 36 });
    expect(quarter.commissions).toHaveLength(3);
    expect((await salesOverview(owner!, demo!.workspaceId, { period: 'month' }, now)).people.every((p) => p.quota !== null)).toBe(true);
    const territories = await territoriesView(owner!, demo!.workspaceId);
    expect(territories.models.map((m) => [m.name, m.active, m.territories.length])).toEqual([['Per zona', true, 3], ['Per canale', false, 3]]);
    const [{ n }] = (await asService((tx) => tx.query<{ n: number }>(`select count(*)::int as n from public.call_scripts where workspace_id = $1`, [demo!.workspaceId]))) as [{ n: number }];
    expect(n).toBe(4);
  });
});
