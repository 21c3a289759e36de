import { z } from 'zod';
import { defineTool, ToolError } from '@/lib/agent';
import { editArtifact, publishArtifact } from './artifacts';
import { ARTIFACT_KINDS } from './schemas';

// Publishing into a conversation the agent is a member of is the agent speaking there, like its
// reply, not an action on the business: kind 'read', so the write gate (autonomy) does not hold it.

export const publishArtifactTool = defineTool({
  name: 'publish_artifact',
  description:
    'Publish something substantial (a document in markdown, code, an HTML page, a CSV table, an image URL) as a versioned artifact in a conversation you are a member of, instead of pasting it into a message. Returns its id and version.',
  input: z.object({
    conversationId: z.string().uuid().describe('The conversation to publish in.'),
    kind: z.enum(ARTIFACT_KINDS),
    title: z.string().min(1).max(200),
    language: z.string().max(40).optional().describe('For code only, e.g. "python".'),
    content: z.string().describe('Markdown, source code, HTML, CSV, or an https/data: image URL.'),
    message: z.string().max(2000).optional().describe('A line to go with it in the conversation.'),
  }),
  kind: 'read',
  handler: async (input, ctx) => {
    if (!ctx.agentId) throw new ToolError('Only an agent can publish artifacts.');
    const { artifact } = await publishArtifact({ kind: 'agent', agentId: ctx.agentId }, input.conversationId, {
      kind: input.kind,
      title: input.title,
      language: input.language,
      content: input.content,
      body: input.message,
    });
    return { artifactId: artifact.id, version: artifact.currentVersion };
  },
});

export const editArtifactTool = defineTool({
  name: 'edit_artifact',
  description: 'Save a new version of an artifact in a conversation you are a member of (the earlier versions stay readable).',
  input: z.object({
    artifactId: z.string().uuid(),
    content: z.string(),
    note: z.string().max(300).optional().describe('What changed, in a few words.'),
  }),
  kind: 'read',
  handler: async (input, ctx) => {
    if (!ctx.agentId) throw new ToolError('Only an agent can edit artifacts.');
    const artifact = await editArtifact({ kind: 'agent', agentId: ctx.agentId }, input.artifactId, { content: input.content, note: input.note });
    return { artifactId: artifact.id, version: artifact.currentVersion };
  },
});
