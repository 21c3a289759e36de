import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ApiError, conflict, isUuid, notFound, rethrowAsApiError, validate } from '@/lib/api';
import { asService, withUser, type SessionUser, type Tx } from '@/lib/db';
import { creatorOf, requireConversationAccess, writeMessageIn, type Actor, type AuthorKind, type SentMessage } from '@/lib/chat';
import { publish } from '@/lib/realtime';
import type { ArtifactChip } from '@/lib/cards';
import { diffLines, mapLine, splitLines, type Diff } from './diff';
import {
  checkContent,
  commentSchema,
  editArtifactSchema,
  publishArtifactSchema,
  restoreSchema,
  type ArtifactKind,
  type EditArtifactInput,
  type PublishArtifactInput,
} from './schemas';

/**
 * Artifacts: versioned objects attached to a conversation. Access is the conversation's: a person
 * reads and writes through RLS (the conversation's visibility), an agent must be a member of the
 * conversation. Every edit and every restore is a new version; nothing is ever overwritten.
 */

export interface Author {
  kind: AuthorKind;
  id: string | null;
  name: string;
}

export interface ArtifactVersionMeta {
  version: number;
  title: string;
  language: string | null;
  note: string;
  restoredFrom: number | null;
  author: Author;
  createdAt: Date;
  size: number;
}

export interface ArtifactVersion extends ArtifactVersionMeta {
  content: string;
}

export interface Artifact {
  id: string;
  workspaceId: string;
  conversationId: string;
  conversationName: string | null;
  messageId: string | null;
  kind: ArtifactKind;
  title: string;
  language: string | null;
  currentVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ArtifactDetail extends Artifact {
  /** Newest first. */
  versions: ArtifactVersionMeta[];
  current: ArtifactVersion;
}

export type CommentPlacement =
  /** Made on the version being viewed. */
  | { status: 'here'; line: number | null }
  /** Made on another version; its line is unchanged there and sits at `line` here. */
  | { status: 'carried'; line: number }
  /** Made on another version on a line that changed since (its `quote` shows what it was about). */
  | { status: 'outdated'; line: null }
  /** About the whole version, made on another one. */
  | { status: 'general'; line: null };

export interface ArtifactComment {
  id: string;
  version: number;
  line: number | null;
  quote: string | null;
  body: string;
  author: Author;
  createdAt: Date;
  placement: CommentPlacement;
}

interface ArtifactRow {
  id: string;
  workspace_id: string;
  conversation_id: string;
  conversation_name: string | null;
  message_id: string | null;
  kind: ArtifactKind;
  title: string;
  language: string | null;
  current_version: number;
  created_at: Date;
  updated_at: Date;
}

interface VersionRow {
  version: number;
  title: string;
  language: string | null;
  note: string;
  restored_from: number | null;
  author_kind: AuthorKind;
  author_id: string | null;
  author_name: string;
  created_at: Date;
  size: number;
  content?: string;
}

const toArtifact = (r: ArtifactRow): Artifact => ({
  id: r.id,
  workspaceId: r.workspace_id,
  conversationId: r.conversation_id,
  conversationName: r.conversation_name,
  messageId: r.message_id,
  kind: r.kind,
  title: r.title,
  language: r.language,
  currentVersion: r.current_version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toVersion = (r: VersionRow): ArtifactVersionMeta => ({
  version: r.version,
  title: r.title,
  language: r.language,
  note: r.note,
  restoredFrom: r.restored_from,
  author: { kind: r.author_kind, id: r.author_id, name: r.author_name },
  createdAt: r.created_at,
  size: r.size,
});

const artifactColumns = `a.id, a.workspace_id, a.conversation_id, c.name as conversation_name, a.message_id, a.kind, a.title, a.language,
  a.current_version, a.created_at, a.updated_at`;
const versionColumns = `version, title, language, note, restored_from, author_kind, coalesce(author_user_id, author_agent_id) as author_id,
  author_name, created_at, length(content) as size`;


/**
 * Runs `fn` as the actor: a person under RLS, which decides their writes too (artifacts_insert,
 * artifacts_update, artifact_versions_insert, artifact_comments_insert); an agent with the server's
 * rights (it is authorised by membership checks, which every read below starts with).
 */
function asActor<T>(actor: Actor, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const run = actor.kind === 'person' ? withUser(actor.user, fn) : asService(fn);
  return run.catch(rethrowAsApiError);
}

/** The artifact if the actor may read it; "not found" otherwise (never "forbidden": no existence leak). */
async function loadArtifact(tx: Tx, actor: Actor, id: string): Promise<ArtifactRow> {
  const [row] = !isUuid(id)
    ? []
    : actor.kind === 'person'
      ? await tx.query<ArtifactRow>(`select ${artifactColumns} from public.artifacts a join public.conversations c on c.id = a.conversation_id where a.id = $1`, [id])
      : await tx.query<ArtifactRow>(
          `select ${artifactColumns} from public.artifacts a join public.conversations c on c.id = a.conversation_id
             join public.conversation_members m on m.conversation_id = a.conversation_id and m.agent_id = $2
            where a.id = $1`,
          [id, actor.agentId],
        );
  if (!row) throw notFound('artifact');
  return row;
}

async function loadVersion(tx: Tx, artifactId: string, version: number): Promise<ArtifactVersion> {
  const [row] = await tx.query<VersionRow>(`select ${versionColumns}, content from public.artifact_versions where artifact_id = $1 and version = $2`, [
    artifactId,
    version,
  ]);
  if (!row) throw notFound('artifactVersion', { version });
  return { ...toVersion(row), content: row.content! };
}

/** The author as a version or comment records them: the column naming them (a person may write only theirs), their id and name. */
async function authorOf(tx: Tx, actor: Actor): Promise<{ kind: AuthorKind; column: 'author_user_id' | 'author_agent_id'; id: string; name: string }> {
  if (actor.kind === 'person') {
    const [row] = await tx.query<{ name: string }>(
      `select coalesce(nullif(display_name, ''), split_part(email, '@', 1)) as name from public.profiles where user_id = $1`,
      [actor.user.id],
    );
    return { kind: 'person', column: 'author_user_id', id: actor.user.id, name: row?.name ?? actor.user.email };
  }
  const [row] = await tx.query<{ name: string }>(`select name from private.agents where id = $1`, [actor.agentId]);
  return { kind: 'agent', column: 'author_agent_id', id: actor.agentId, name: row?.name ?? 'Agent' };
}

async function insertVersion(
  tx: Tx,
  artifact: Pick<ArtifactRow, 'id' | 'workspace_id' | 'conversation_id'>,
  actor: Actor,
  v: { version: number; title: string; language: string | null; content: string; note: string; restoredFrom?: number },
) {
  const author = await authorOf(tx, actor);
  await tx.query(
    `insert into public.artifact_versions (workspace_id, conversation_id, artifact_id, version, title, language, content, note, restored_from,
                                           author_kind, ${author.column}, author_name)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      artifact.workspace_id,
      artifact.conversation_id,
      artifact.id,
      v.version,
      v.title,
      v.language,
      v.content,
      v.note,
      v.restoredFrom ?? null,
      author.kind,
      author.id,
      author.name,
    ],
  );
}

/**
 * Publishes an artifact into a conversation: version 1, and a message with its chip, through the
 * send path (so the conversation's agents and realtime hear of it like any message).
 */
export async function publishArtifact(actor: Actor, conversationId: string, input: PublishArtifactInput): Promise<{ artifact: ArtifactDetail; message: SentMessage }> {
  const data = validate(publishArtifactSchema, input);
  const content = data.kind === 'image' ? data.content.trim() : data.content;
  const id = randomUUID();
  const message = await asActor(actor, async (tx) => {
    await requireConversationAccess(tx, actor, conversationId);
    const chip: ArtifactChip = { id, kind: data.kind, title: data.title, version: 1 };
    const message = await writeMessageIn(tx, actor, conversationId, data.body || data.title, { extractThreads: false, payload: { artifacts: [chip] } });
    const [creator, creatorId] = creatorOf(actor);
    await tx.query(
      `insert into public.artifacts (id, workspace_id, conversation_id, message_id, kind, title, language, ${creator}) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [id, message.workspaceId, conversationId, message.id, data.kind, data.title, data.language ?? null, creatorId],
    );
    await insertVersion(tx, { id, workspace_id: message.workspaceId, conversation_id: conversationId }, actor, {
      version: 1,
      title: data.title,
      language: data.language ?? null,
      content,
      note: data.note,
    });
    return message;
  });
  return { artifact: await getArtifact(actor, id), message };
}

/** The artifact, its history (newest first) and its current version's content. */
export async function getArtifact(actor: Actor, id: string): Promise<ArtifactDetail> {
  return asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    const versions = await tx.query<VersionRow>(`select ${versionColumns} from public.artifact_versions where artifact_id = $1 order by version desc`, [row.id]);
    return { ...toArtifact(row), versions: versions.map(toVersion), current: await loadVersion(tx, row.id, row.current_version) };
  });
}

export async function listVersions(actor: Actor, id: string): Promise<ArtifactVersionMeta[]> {
  return (await getArtifact(actor, id)).versions;
}

export async function getVersion(actor: Actor, id: string, version: number): Promise<ArtifactVersion> {
  return asActor(actor, async (tx) => loadVersion(tx, (await loadArtifact(tx, actor, id)).id, version));
}

/**
 * Locks the artifact for a new version (version numbers are handed out one at a time) and returns
 * its current state. In the actor's transaction: a person may lock what they may update
 * (artifacts_update), and the caller checked access first.
 */
async function lockForVersion(tx: Tx, id: string) {
  const [row] = await tx.query<{ current_version: number; kind: ArtifactKind; message_id: string | null; workspace_id: string; conversation_id: string }>(
    `select current_version, kind, message_id, workspace_id, conversation_id from public.artifacts where id = $1 for update`,
    [id],
  );
  return row!;
}

async function announce(tx: Tx, row: { workspace_id: string; conversation_id: string; message_id: string | null }) {
  // The chip's message is re-read by whoever shows it (its artifact moved on).
  if (row.message_id) await publish(tx, { type: 'message', workspaceId: row.workspace_id, conversationId: row.conversation_id, messageId: row.message_id });
}

async function addVersion(
  tx: Tx,
  actor: Actor,
  id: string,
  next: (current: ArtifactVersion, kind: ArtifactKind) => { title: string; language: string | null; content: string; note: string; restoredFrom?: number },
): Promise<number> {
  const locked = await lockForVersion(tx, id);
  const current = await loadVersion(tx, id, locked.current_version);
  const v = next(current, locked.kind);
  const version = locked.current_version + 1;
  await insertVersion(tx, { id, workspace_id: locked.workspace_id, conversation_id: locked.conversation_id }, actor, { ...v, version });
  await tx.query(`update public.artifacts set current_version = $2, title = $3, language = $4, updated_at = now() where id = $1`, [id, version, v.title, v.language]);
  await announce(tx, locked);
  return version;
}

/** An edit: a new version with the given content (and title/language when given). */
export async function editArtifact(actor: Actor, id: string, input: EditArtifactInput): Promise<ArtifactDetail> {
  const data = validate(editArtifactSchema, input);
  await asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    return addVersion(tx, actor, row.id, (current, kind) => {
      if (data.baseVersion !== undefined && data.baseVersion !== current.version) {
        throw conflict('api.artifacts.staleEdit', { current: current.version, base: data.baseVersion }, { currentVersion: current.version });
      }
      const next = {
        title: data.title ?? current.title,
        language: data.language === undefined ? current.language : data.language,
        content: kind === 'image' ? data.content.trim() : data.content,
        note: data.note,
      };
      validate(z.object({ content: z.string(), language: z.string().nullable() }).superRefine((v, ctx) => checkContent(kind, v, ctx)), next);
      if (next.content === current.content && next.title === current.title && next.language === current.language) {
        throw new ApiError('validation_failed', 'api.artifacts.nothingChanged');
      }
      return next;
    });
  });
  return getArtifact(actor, id);
}

/** Restores a past version: its content becomes a new, current version (history stays whole). */
export async function restoreVersion(actor: Actor, id: string, input: z.input<typeof restoreSchema>): Promise<ArtifactDetail> {
  const { version, note } = validate(restoreSchema, input);
  await asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    const past = await loadVersion(tx, row.id, version);
    return addVersion(tx, actor, row.id, (current) => {
      if (current.version === version) throw conflict('api.artifacts.alreadyCurrent', { version });
      return { title: past.title, language: past.language, content: past.content, note: note || `Restored version ${version}`, restoredFrom: version };
    });
  });
  return getArtifact(actor, id);
}

/** What changed between two versions, line by line (`from` older or newer: the diff reads from → to). */
export async function diffVersions(actor: Actor, id: string, from: number, to: number): Promise<Diff & { from: ArtifactVersionMeta; to: ArtifactVersionMeta }> {
  return asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    const [a, b] = [await loadVersion(tx, row.id, from), await loadVersion(tx, row.id, to)];
    const { content: _a, ...fromMeta } = a;
    const { content: _b, ...toMeta } = b;
    return { from: fromMeta, to: toMeta, ...diffLines(a.content, b.content) };
  });
}

/** A comment on a version (optionally on one of its lines, whose text it keeps as the quote). */
export async function addComment(actor: Actor, id: string, input: z.input<typeof commentSchema>): Promise<ArtifactComment> {
  const data = validate(commentSchema, input);
  const commentId = await asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    const version = await loadVersion(tx, row.id, data.version);
    const lines = splitLines(version.content);
    if (data.line !== undefined && data.line > lines.length) {
      throw new ApiError('validation_failed', 'api.artifacts.noSuchLine', { version: data.version, lines: lines.length, line: data.line });
    }
    const author = await authorOf(tx, actor);
    const [inserted] = await tx.query<{ id: string }>(
      `insert into public.artifact_comments (workspace_id, conversation_id, artifact_id, version, line, quote, body, author_kind, ${author.column}, author_name)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
      [
        row.workspace_id,
        row.conversation_id,
        row.id,
        data.version,
        data.line ?? null,
        data.line !== undefined ? lines[data.line - 1]!.slice(0, 500) : null,
        data.body,
        author.kind,
        author.id,
        author.name,
      ],
    );
    await announce(tx, row);
    return inserted!.id;
  });
  return (await listComments(actor, id)).find((c) => c.id === commentId)!;
}

/**
 * Every comment of the artifact, oldest first, placed on `viewVersion` (default: the current one):
 * a line comment follows its line through the versions while the line is unchanged.
 */
export async function listComments(actor: Actor, id: string, viewVersion?: number): Promise<ArtifactComment[]> {
  return asActor(actor, async (tx) => {
    const row = await loadArtifact(tx, actor, id);
    const view = viewVersion ?? row.current_version;
    const rows = await tx.query<{
      id: string;
      version: number;
      line: number | null;
      quote: string | null;
      body: string;
      author_kind: AuthorKind;
      author_id: string | null;
      author_name: string;
      created_at: Date;
    }>(
      `select id, version, line, quote, body, author_kind, coalesce(author_user_id, author_agent_id) as author_id, author_name, created_at
         from public.artifact_comments where artifact_id = $1 order by created_at, id`,
      [row.id],
    );
    const needed = [...new Set([view, ...rows.filter((r) => r.line !== null && r.version !== view).map((r) => r.version)])];
    const contents = new Map<number, string>();
    if (rows.some((r) => r.line !== null && r.version !== view)) {
      const versions = await tx.query<{ version: number; content: string }>(
        `select version, content from public.artifact_versions where artifact_id = $1 and version = any($2::int[])`,
        [row.id, needed],
      );
      for (const v of versions) contents.set(v.version, v.content);
      if (!contents.has(view)) throw notFound('artifactVersion', { version: view });
    }
    return rows.map((r) => {
      let placement: CommentPlacement;
      if (r.version === view) placement = { status: 'here', line: r.line };
      else if (r.line === null) placement = { status: 'general', line: null };
      else {
        const line = mapLine(contents.get(r.version)!, contents.get(view)!, r.line);
        placement = line === null ? { status: 'outdated', line: null } : { status: 'carried', line };
      }
      return {
        id: r.id,
        version: r.version,
        line: r.line,
        quote: r.quote,
        body: r.body,
        author: { kind: r.author_kind, id: r.author_id, name: r.author_name },
        createdAt: r.created_at,
        placement,
      };
    });
  });
}

/** The artifacts of a conversation the person can read, latest change first. */
export async function listConversationArtifacts(user: SessionUser, conversationId: string): Promise<Artifact[]> {
  return withUser(user, async (tx) => {
    await requireConversationAccess(tx, { kind: 'person', user }, conversationId);
    const rows = await tx.query<ArtifactRow>(
      `select ${artifactColumns} from public.artifacts a join public.conversations c on c.id = a.conversation_id
        where a.conversation_id = $1 order by a.updated_at desc`,
      [conversationId],
    );
    return rows.map(toArtifact);
  }).catch(rethrowAsApiError);
}

/** The artifacts of a workspace the person can read (every conversation they see), latest change first. */
export async function listWorkspaceArtifacts(user: SessionUser, workspaceId: string, limit = 100): Promise<Artifact[]> {
  if (!isUuid(workspaceId)) throw notFound('workspace');
  return withUser(user, async (tx) => {
    const rows = await tx.query<ArtifactRow>(
      `select ${artifactColumns} from public.artifacts a join public.conversations c on c.id = a.conversation_id
        where a.workspace_id = $1 order by a.updated_at desc limit $2`,
      [workspaceId, limit],
    );
    return rows.map(toArtifact);
  }).catch(rethrowAsApiError);
}
