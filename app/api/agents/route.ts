import { z } from 'zod';
import { ok, parseJson, parseQuery, route } from '@/lib/api';
import { createAgent, createAgentSchema, listOwnAgents, listWorkspaceAgents } from '@/lib/agents';
import { requireUser } from '@/lib/auth';

// ?workspaceId=… lists the agents shown in that workspace (anyone's); without it, the caller's own.
export const GET = route(async ({ req }) => {
  const user = await requireUser(req);
  const { workspaceId } = parseQuery(req, z.object({ workspaceId: z.string().uuid().optional() }));
  return ok(workspaceId ? await listWorkspaceAgents(user, workspaceId) : await listOwnAgents(user));
});

export const POST = route(async ({ req }) => {
  const user = await requireUser(req);
  const input = await parseJson(req, createAgentSchema);
  return ok(await createAgent(user, input), 201);
});
