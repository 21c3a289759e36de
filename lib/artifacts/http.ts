import { z } from 'zod';
import { ok, parseJson, parseParams, parseQuery, route } from '@/lib/api';
import { requireAgent } from '@/lib/agents';
import { requireUser } from '@/lib/auth';
import type { Actor } from '@/lib/chat';
import { addComment, diffVersions, editArtifact, getArtifact, getVersion, listComments, listVersions, restoreVersion } from './artifacts';
import { exportArtifact, fileResponse } from './export';
import { commentSchema, diffQuerySchema, editArtifactSchema, exportQuerySchema, MAX_VERSION, restoreSchema, versionQuerySchema } from './schemas';

/**
 * The artifact endpoints, once for people (`/api/artifacts/…`, session) and once for agents
 * (`/api/agents/me/artifacts/…`, agent session token): the same handlers, only the caller differs.
 * Route files pick their handler from here.
 */

type Who = (req: Request) => Promise<Actor>;
export const person: Who = async (req) => ({ kind: 'person', user: await requireUser(req) });
export const agent: Who = async (req) => ({ kind: 'agent', agentId: (await requireAgent(req)).agentId });

type Params = { artifactId: string };
const versionParams = z.object({ artifactId: z.string(), version: z.coerce.number().int().positive().max(MAX_VERSION) });

/** `readers`: whose language the errors speak (`route`): people's pages, or programs (the agent API). */
export function artifactHandlers(who: Who, readers: 'people' | 'programs') {
  return {
    get: route<Params>(async ({ req, params }) => ok(await getArtifact(await who(req), params.artifactId)), readers),
    listVersions: route<Params>(async ({ req, params }) => ok(await listVersions(await who(req), params.artifactId)), readers),
    // An edit is a new version.
    createVersion: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      return ok(await editArtifact(actor, params.artifactId, await parseJson(req, editArtifactSchema)), 201);
    }, readers),
    getVersion: route<Params & { version: string }>(async ({ req, params }) => {
      const actor = await who(req);
      const { artifactId, version } = parseParams(params, versionParams);
      return ok(await getVersion(actor, artifactId, version));
    }, readers),
    restore: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      return ok(await restoreVersion(actor, params.artifactId, await parseJson(req, restoreSchema)), 201);
    }, readers),
    diff: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      const { from, to } = parseQuery(req, diffQuerySchema);
      return ok(await diffVersions(actor, params.artifactId, from, to));
    }, readers),
    listComments: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      return ok(await listComments(actor, params.artifactId, parseQuery(req, versionQuerySchema).version));
    }, readers),
    addComment: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      return ok(await addComment(actor, params.artifactId, await parseJson(req, commentSchema)), 201);
    }, readers),
    // A download, not the JSON envelope (errors still come as the envelope).
    export: route<Params>(async ({ req, params }) => {
      const actor = await who(req);
      return fileResponse(await exportArtifact(actor, params.artifactId, parseQuery(req, exportQuerySchema)));
    }, readers),
  };
}

export const personArtifacts = artifactHandlers(person, 'people');
export const agentArtifacts = artifactHandlers(agent, 'programs');
