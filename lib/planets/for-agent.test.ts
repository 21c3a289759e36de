import { describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import { signAccessToken } from '@/lib/auth';
import { chatWorld } from '@/lib/chat/test-world';
import type { SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import * as planetMetrics from '@/app/api/agents/me/workspaces/[workspaceId]/planets/[planet]/route';

setupTestDatabase();

async function agentToken(owner: SessionUser, agentId: string) {
  const { key } = await createAgentKey(owner, agentId);
  return (await exchangeAgentCredential(key)).token;
}

async function read(token: string, workspaceId: string, planet: string) {
  const req = new Request(`http://test/api/agents/me/workspaces/${workspaceId}/planets/${planet}`, { headers: { authorization: `Bearer ${token}` } });
  const response = await planetMetrics.GET(req, { params: Promise.resolve({ workspaceId, planet }) });
  return { status: response.status, body: (await response.json()) as { data: Record<string, unknown> | null; error: { code: string } | null } };
}

describe('GET /api/agents/me/workspaces/:workspaceId/planets/:planet', () => {
  it('gives an agent of the workspace the planet’s metrics keyed by their ids, and no one else anything', async () => {
    const w = await chatWorld();
    const outsider = await createAgent(w.stranger, { name: 'Scout' });

    const answered = await read(await agentToken(w.owner, w.atlas.id), w.team.id, 'booking');
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ planet: 'booking', health: expect.any(String), reasons: expect.any(Array) });
    // The ids stay as they are (the camelCase serializer would make bookings_today bookingsToday).
    expect(Object.keys(answered.body.data!.metrics as object)).toEqual(expect.arrayContaining(['bookings_today', 'no_show_rate_30d']));

    expect(await read(await agentToken(w.stranger, outsider.id), w.team.id, 'booking')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect(await read(await agentToken(w.owner, w.atlas.id), w.team.id, 'moon')).toMatchObject({ status: 404, body: { error: { code: 'not_found' } } });
    expect((await read(await signAccessToken(w.owner), w.team.id, 'booking')).status).toBe(401);
  });
});
