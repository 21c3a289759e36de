import { z } from 'zod';
import { isSafeImageUrl } from '@/lib/text';

/** Request shapes of the artifact endpoints and tools (routes parse with these). */

export const ARTIFACT_KINDS = ['document', 'code', 'html', 'table', 'image'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const MAX_CONTENT = 2_000_000;

const title = z.string().trim().min(1, 'api.artifacts.titleRequired').max(200, 'api.field.maxChars');
const language = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9+#._-]{1,40}$/, 'api.artifacts.language');
const content = z.string().max(MAX_CONTENT, 'api.artifacts.contentTooLong');
const note = z.string().trim().max(300).default('');
/** Version numbers are Postgres integers: a larger one names no version, and would fail in the query. */
export const MAX_VERSION = 2_147_483_647;
const version = z.number().int().positive().max(MAX_VERSION, 'api.artifacts.noSuchVersion');
const versionInQuery = z.coerce.number().int().positive().max(MAX_VERSION, 'api.artifacts.noSuchVersion');

/** Kind-specific rules shared by publishing and editing. */
function checkContent(kind: ArtifactKind | undefined, value: { content: string; language?: string | null }, ctx: z.RefinementCtx) {
  if (kind === 'image' && !isSafeImageUrl(value.content.trim())) {
    ctx.addIssue({ code: 'custom', path: ['content'], message: 'api.artifacts.imageUrl' });
  }
  if (kind && kind !== 'code' && value.language) ctx.addIssue({ code: 'custom', path: ['language'], message: 'api.artifacts.codeOnlyLanguage' });
  if (kind !== 'image' && !value.content.trim()) ctx.addIssue({ code: 'custom', path: ['content'], message: 'api.field.writeSomething' });
}

export const publishArtifactSchema = z
  .object({
    kind: z.enum(ARTIFACT_KINDS),
    title,
    language: language.optional(),
    content,
    /** The message that goes with it in the conversation; the title when absent. */
    body: z.string().trim().max(2000).optional(),
    note,
  })
  .superRefine((v, ctx) => checkContent(v.kind, v, ctx));
export type PublishArtifactInput = z.input<typeof publishArtifactSchema>;

export const agentPublishArtifactSchema = z.object({ conversationId: z.string().uuid() }).and(publishArtifactSchema);

export const editArtifactSchema = z.object({
  content,
  title: title.optional(),
  language: language.nullable().optional(),
  /** What changed, in a few words. */
  note,
  /** The version the edit was made on: refused when someone saved a newer one meanwhile. */
  baseVersion: version.optional(),
});
export type EditArtifactInput = z.input<typeof editArtifactSchema>;

export const restoreSchema = z.object({ version, note });

export const commentSchema = z.object({
  version,
  /** A line of that version (1-based); none for a comment on the whole version. */
  line: z.number().int().positive().optional(),
  body: z.string().trim().min(1, 'api.field.writeSomething').max(4000),
});

export const diffQuerySchema = z.object({ from: versionInQuery, to: versionInQuery });
export const versionQuerySchema = z.object({ version: versionInQuery.optional() });
export const exportQuerySchema = versionQuerySchema.extend({ format: z.enum(['file', 'pdf']).default('file') });

export { checkContent };
