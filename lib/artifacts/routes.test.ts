import { describe, expect, it } from 'vitest';
import { createAgentKey, exchangeAgentCredential } from '@/lib/agents';
import { signAccessToken } from '@/lib/auth';
import { publishResults } from '@/lib/cards';
import { createConversation } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import type { SessionUser } from '@/lib/db';
import { setupTestDatabase } from '@/test/db';
import * as agentArtifact from '@/app/api/agents/me/artifacts/[artifactId]/route';
import * as agentComments from '@/app/api/agents/me/artifacts/[artifactId]/comments/route';
import * as agentDiff from '@/app/api/agents/me/artifacts/[artifactId]/diff/route';
import * as agentExport from '@/app/api/agents/me/artifacts/[artifactId]/export/route';
import * as agentRestore from '@/app/api/agents/me/artifacts/[artifactId]/restore/route';
import * as agentVersion from '@/app/api/agents/me/artifacts/[artifactId]/versions/[version]/route';
import * as agentVersions from '@/app/api/agents/me/artifacts/[artifactId]/versions/route';
import * as agentPublish from '@/app/api/agents/me/artifacts/route';
import * as agentResults from '@/app/api/agents/me/results/route';
import * as artifact from '@/app/api/artifacts/[artifactId]/route';
import * as comments from '@/app/api/artifacts/[artifactId]/comments/route';
import * as diff from '@/app/api/artifacts/[artifactId]/diff/route';
import * as exporting from '@/app/api/artifacts/[artifactId]/export/route';
import * as restore from '@/app/api/artifacts/[artifactId]/restore/route';
import * as version from '@/app/api/artifacts/[artifactId]/versions/[version]/route';
import * as versions from '@/app/api/artifacts/[artifactId]/versions/route';
import * as cardActions from '@/app/api/cards/[messageId]/actions/route';
import * as cardList from '@/app/api/cards/route';
import * as conversationArtifacts from '@/app/api/conversations/[conversationId]/artifacts/route';

setupTestDatabase();

type Handler = (req: Request, segment?: { params?: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, token: string, path: string, params: Record<string, string>, body?: unknown): Promise<Response> {
  const req = new Request(`http://test${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return handler(req, { params: Promise.resolve(params) });
}

const personToken = (user: SessionUser) => signAccessToken(user);
async function agentToken(owner: SessionUser, agentId: string) {
  const { key } = await createAgentKey(owner, agentId);
  return (await exchangeAgentCredential(key)).token;
}

describe('every artifact and card route follows the conversation’s membership', () => {
  it('answers members and gives everyone else "not found", people and agents alike', async () => {
    const w = await chatWorld();
    const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.atlas.id] });
    const [owner, coworker, stranger] = await Promise.all([personToken(w.owner), personToken(w.coworker), personToken(w.stranger)]);
    const [atlas, nova] = [await agentToken(w.owner, w.atlas.id), await agentToken(w.owner, w.nova.id)];

    // Atlas (a member) publishes through the agent API; the owner (a member) reads through the people's.
    const published = await call(agentPublish.POST as Handler, atlas, '/api/agents/me/artifacts', {}, {
      conversationId: dm.id,
      kind: 'document',
      title: 'Plan',
      content: '# Plan\n\nStep one',
    });
    expect(published.status).toBe(201);
    const id = (await published.json()).data.artifact.id as string;
    const { message } = await publishResults(w.atlas.id, { conversationId: dm.id, results: [{ type: 'deal', data: { title: 'Spa', value: 10, stage: 'new' }, actions: [{ label: 'Follow up', verb: 'follow_up' }] }] });

    const p = { artifactId: id };
    const personRoutes: [string, Handler, Record<string, string>, string, unknown?][] = [
      ['artifact', artifact.GET as Handler, p, `/api/artifacts/${id}`],
      ['versions', versions.GET as Handler, p, `/api/artifacts/${id}/versions`],
      ['edit', versions.POST as Handler, p, `/api/artifacts/${id}/versions`, { content: 'changed' }],
      ['version', version.GET as Handler, { ...p, version: '1' }, `/api/artifacts/${id}/versions/1`],
      ['restore', restore.POST as Handler, p, `/api/artifacts/${id}/restore`, { version: 1 }],
      ['diff', diff.GET as Handler, p, `/api/artifacts/${id}/diff?from=1&to=1`],
      ['comments', comments.GET as Handler, p, `/api/artifacts/${id}/comments`],
      ['comment', comments.POST as Handler, p, `/api/artifacts/${id}/comments`, { version: 1, body: 'hi' }],
      ['export', exporting.GET as Handler, p, `/api/artifacts/${id}/export`],
      ['export pdf', exporting.GET as Handler, p, `/api/artifacts/${id}/export?format=pdf`],
      ['conversation artifacts', conversationArtifacts.GET as Handler, { conversationId: dm.id }, `/api/conversations/${dm.id}/artifacts`],
      ['publish', conversationArtifacts.POST as Handler, { conversationId: dm.id }, `/api/conversations/${dm.id}/artifacts`, { kind: 'document', title: 'x', content: 'x' }],
      ['cards', cardList.GET as Handler, {}, `/api/cards?conversationId=${dm.id}`],
      ['click', cardActions.POST as Handler, { messageId: message.id }, `/api/cards/${message.id}/actions`, { cardId: 'c1', actionId: 'follow_up' }],
    ];
    const agentRoutes: [string, Handler, Record<string, string>, string, unknown?][] = [
      ['artifact', agentArtifact.GET as Handler, p, `/api/agents/me/artifacts/${id}`],
      ['versions', agentVersions.GET as Handler, p, `/api/agents/me/artifacts/${id}/versions`],
      ['edit', agentVersions.POST as Handler, p, `/api/agents/me/artifacts/${id}/versions`, { content: 'changed' }],
      ['version', agentVersion.GET as Handler, { ...p, version: '1' }, `/api/agents/me/artifacts/${id}/versions/1`],
      ['restore', agentRestore.POST as Handler, p, `/api/agents/me/artifacts/${id}/restore`, { version: 1 }],
      ['diff', agentDiff.GET as Handler, p, `/api/agents/me/artifacts/${id}/diff?from=1&to=1`],
      ['comments', agentComments.GET as Handler, p, `/api/agents/me/artifacts/${id}/comments`],
      ['comment', agentComments.POST as Handler, p, `/api/agents/me/artifacts/${id}/comments`, { version: 1, body: 'hi' }],
      ['export', agentExport.GET as Handler, p, `/api/agents/me/artifacts/${id}/export?format=pdf`],
      ['publish', agentPublish.POST as Handler, {}, '/api/agents/me/artifacts', { conversationId: dm.id, kind: 'document', title: 'x', content: 'x' }],
      ['results', agentResults.POST as Handler, {}, '/api/agents/me/results', { conversationId: dm.id, results: [{ type: 'deal', data: { title: 'x', value: 1, stage: 'new' } }] }],
    ];

    for (const [name, handler, params, path, body] of personRoutes) {
      for (const [who, token] of [['coworker outside the DM', coworker], ['stranger', stranger]] as const) {
        const response = await call(handler, token, path, params, body);
        expect({ route: name, who, status: response.status }).toEqual({ route: name, who, status: 404 });
        expect(JSON.stringify(await response.json())).not.toContain('Step one');
      }
    }
    for (const [name, handler, params, path, body] of agentRoutes) {
      const response = await call(handler, nova, path, params, body);
      expect({ route: name, status: response.status }).toEqual({ route: name, status: 404 });
    }

    // The members get through, and the export is a download that cannot run in the app's origin.
    const read = await call(artifact.GET as Handler, owner, `/api/artifacts/${id}`, p);
    expect((await read.json()).data.current.content).toBe('# Plan\n\nStep one');
    const file = await call(exporting.GET as Handler, owner, `/api/artifacts/${id}/export?format=pdf`, p);
    expect([file.status, file.headers.get('content-type'), file.headers.get('content-security-policy')]).toEqual([200, 'application/pdf', "sandbox; default-src 'none'"]);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="plan-v1.pdf"');
    const agentRead = await call(agentVersion.GET as Handler, atlas, `/api/agents/me/artifacts/${id}/versions/1`, { ...p, version: '1' });
    expect(agentRead.status).toBe(200);
    // A person's token is no agent's, and the other way round.
    expect((await call(agentArtifact.GET as Handler, owner, `/api/agents/me/artifacts/${id}`, p)).status).toBe(401);
    expect((await call(artifact.GET as Handler, atlas, `/api/artifacts/${id}`, p)).status).toBe(401);
  });
});
