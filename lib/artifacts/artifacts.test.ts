import { describe, expect, it } from 'vitest';
import { createConversation } from '@/lib/chat';
import { chatWorld } from '@/lib/chat/test-world';
import { setupTestDatabase } from '@/test/db';
import {
  addComment,
  diffVersions,
  editArtifact,
  exportArtifact,
  getArtifact,
  getVersion,
  listComments,
  listConversationArtifacts,
  listWorkspaceArtifacts,
  publishArtifact,
  restoreVersion,
} from '.';

setupTestDatabase();

const DOC = ['# Spring offer', '', 'Dear customer,', 'we open on Sunday.', 'See you soon.'].join('\n');

async function world() {
  const w = await chatWorld();
  // A DM of the owner with Atlas: the coworker, Nova and Iris are not in it.
  const { conversation: dm } = await createConversation(w.owner, { kind: 'dm', workspaceId: w.team.id, agentIds: [w.atlas.id] });
  return { ...w, dm };
}

const expectNotFound = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ code: 'not_found' });

describe('versions', () => {
  it('makes every edit a new version, keeps the whole history readable, diffs any two and restores as a new version', async () => {
    const w = await world();
    const { artifact, message } = await publishArtifact(w.person(w.owner), w.dm.id, { kind: 'document', title: 'Spring offer', content: DOC });
    expect(artifact).toMatchObject({ kind: 'document', currentVersion: 1, messageId: message.id, conversationId: w.dm.id });
    expect(message.payload.artifacts).toEqual([{ id: artifact.id, kind: 'document', title: 'Spring offer', version: 1 }]);

    // Atlas edits (an agent member), then the owner edits on top of it.
    const v2 = await editArtifact(w.as(w.atlas), artifact.id, { content: DOC.replace('Sunday', 'Saturday'), note: 'Right day', baseVersion: 1 });
    const v3 = await editArtifact(w.person(w.owner), artifact.id, { content: `${v2.current.content}\nMarco`, title: 'Spring offer (final)' });
    expect(v3.currentVersion).toBe(3);
    expect(v3.title).toBe('Spring offer (final)');
    expect(v3.versions.map((v) => [v.version, v.author.kind, v.author.name, v.note])).toEqual([
      [3, 'person', 'owner', ''],
      [2, 'agent', 'Atlas', 'Right day'],
      [1, 'person', 'owner', ''],
    ]);
    expect((await getVersion(w.person(w.owner), artifact.id, 1)).content).toBe(DOC);

    // An edit made on a stale version is refused instead of silently overwriting.
    await expect(editArtifact(w.person(w.owner), artifact.id, { content: 'x', baseVersion: 2 })).rejects.toMatchObject({ code: 'conflict' });
    await expect(editArtifact(w.person(w.owner), artifact.id, { content: v3.current.content })).rejects.toMatchObject({ code: 'validation_failed' });

    const diff = await diffVersions(w.person(w.owner), artifact.id, 1, 3);
    expect(diff.lines.filter((l) => l.op !== 'same')).toEqual([
      { op: 'del', text: 'we open on Sunday.', a: 4 },
      { op: 'add', text: 'we open on Saturday.', b: 4 },
      { op: 'add', text: 'Marco', b: 6 },
    ]);
    expect([diff.added, diff.removed, diff.from.version, diff.to.version]).toEqual([2, 1, 1, 3]);

    const restored = await restoreVersion(w.person(w.owner), artifact.id, { version: 1 });
    expect(restored.currentVersion).toBe(4);
    expect(restored.current).toMatchObject({ content: DOC, title: 'Spring offer', restoredFrom: 1, note: 'Restored version 1' });
    expect(restored.versions).toHaveLength(4);
    await expect(restoreVersion(w.person(w.owner), artifact.id, { version: 4 })).rejects.toMatchObject({ code: 'conflict' });
  });

  it('checks content by kind: images are URLs, only code has a language', async () => {
    const w = await world();
    await expect(publishArtifact(w.person(w.owner), w.dm.id, { kind: 'image', title: 'Logo', content: 'javascript:alert(1)' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(publishArtifact(w.person(w.owner), w.dm.id, { kind: 'document', title: 'Doc', language: 'python', content: 'x' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    const { artifact } = await publishArtifact(w.as(w.atlas), w.dm.id, { kind: 'code', title: 'Script', language: 'Python', content: 'print(1)' });
    expect(artifact.language).toBe('python');
  });
});

describe('comments', () => {
  it('attach to a version and follow their line through later versions, or show as outdated when it changed', async () => {
    const w = await world();
    const owner = w.person(w.owner);
    const { artifact } = await publishArtifact(owner, w.dm.id, { kind: 'document', title: 'Spring offer', content: DOC });
    const onLine = await addComment(owner, artifact.id, { version: 1, line: 3, body: 'Use their name' });
    const onSunday = await addComment(w.as(w.atlas), artifact.id, { version: 1, line: 4, body: 'Is Sunday right?' });
    const general = await addComment(owner, artifact.id, { version: 1, body: 'Shorter overall' });
    expect(onLine).toMatchObject({ version: 1, line: 3, quote: 'Dear customer,', placement: { status: 'here', line: 3 } });
    expect(onSunday.author).toMatchObject({ kind: 'agent', name: 'Atlas' });
    await expect(addComment(owner, artifact.id, { version: 1, line: 99, body: 'x' })).rejects.toMatchObject({ code: 'validation_failed' });

    // v2 adds a line on top (the commented lines move down); v3 rewrites the Sunday line.
    await editArtifact(owner, artifact.id, { content: `Draft\n${DOC}` });
    await editArtifact(owner, artifact.id, { content: `Draft\n${DOC.replace('Sunday', 'Saturday')}` });
    const placed = (comments: Awaited<ReturnType<typeof listComments>>) => comments.map((c) => [c.body, c.placement.status, c.placement.line]);

    expect(placed(await listComments(owner, artifact.id, 2))).toEqual([
      ['Use their name', 'carried', 4],
      ['Is Sunday right?', 'carried', 5],
      ['Shorter overall', 'general', null],
    ]);
    expect(placed(await listComments(owner, artifact.id))).toEqual([
      ['Use their name', 'carried', 4],
      ['Is Sunday right?', 'outdated', null],
      ['Shorter overall', 'general', null],
    ]);
    expect(placed(await listComments(owner, artifact.id, 1))).toEqual([
      ['Use their name', 'here', 3],
      ['Is Sunday right?', 'here', 4],
      ['Shorter overall', 'here', null],
    ]);
    // Restoring version 1 brings the line back: the comment finds it again.
    await restoreVersion(owner, artifact.id, { version: 1 });
    expect(placed(await listComments(owner, artifact.id))[1]).toEqual(['Is Sunday right?', 'carried', 4]);
    expect(general.placement).toEqual({ status: 'here', line: null });
  });
});

describe('visibility follows the conversation', () => {
  it('lets members read and hides the artifact from everyone else, people and agents, on every path', async () => {
    const w = await world();
    const { artifact } = await publishArtifact(w.as(w.atlas), w.dm.id, { kind: 'document', title: 'Private plan', content: DOC });
    await addComment(w.person(w.owner), artifact.id, { version: 1, body: 'ok' });

    // Outsiders: a coworker of the workspace who is not in the DM, a stranger, and an agent of the
    // workspace that is not a member.
    for (const outsider of [w.person(w.coworker), w.person(w.stranger), w.as(w.nova)]) {
      await expectNotFound(getArtifact(outsider, artifact.id));
      await expectNotFound(getVersion(outsider, artifact.id, 1));
      await expectNotFound(editArtifact(outsider, artifact.id, { content: 'mine now' }));
      await expectNotFound(restoreVersion(outsider, artifact.id, { version: 1 }));
      await expectNotFound(diffVersions(outsider, artifact.id, 1, 1));
      await expectNotFound(addComment(outsider, artifact.id, { version: 1, body: 'hi' }));
      await expectNotFound(listComments(outsider, artifact.id));
      await expectNotFound(exportArtifact(outsider, artifact.id, { format: 'file' }));
      await expectNotFound(exportArtifact(outsider, artifact.id, { format: 'pdf' }));
      await expectNotFound(publishArtifact(outsider, w.dm.id, { kind: 'document', title: 'x', content: 'x' }));
    }
    await expectNotFound(listConversationArtifacts(w.coworker, w.dm.id));
    expect(await listWorkspaceArtifacts(w.coworker, w.team.id)).toEqual([]);
    expect((await listWorkspaceArtifacts(w.owner, w.team.id)).map((a) => a.id)).toEqual([artifact.id]);

    // A public channel's artifacts are readable by every member of the workspace, as its messages are.
    const { artifact: shared } = await publishArtifact(w.as(w.nova), w.channel.id, { kind: 'table', title: 'Prices', content: 'a,b\n1,2' });
    expect((await getArtifact(w.person(w.coworker), shared.id)).title).toBe('Prices');
    await expectNotFound(getArtifact(w.person(w.stranger), shared.id));
    // The edit history says who: the coworker's edit is theirs.
    const edited = await editArtifact(w.person(w.coworker), shared.id, { content: 'a,b\n1,3' });
    expect(edited.versions[0]!.author).toMatchObject({ kind: 'person', id: w.coworker.id });
  });
});

describe('export', () => {
  it('downloads each kind as its own file and documents, code and tables as PDF', async () => {
    const w = await world();
    const owner = w.person(w.owner);
    const { artifact: doc } = await publishArtifact(owner, w.dm.id, { kind: 'document', title: 'Offerta di primavera', content: '# Offerta\n\nPiù caffè, è così.' });
    await editArtifact(owner, doc.id, { content: '# Offerta\n\nNuova.' });
    const file = await exportArtifact(owner, doc.id, { format: 'file', version: 1 });
    expect(file).toMatchObject({ filename: 'offerta-di-primavera-v1.md', contentType: 'text/markdown; charset=utf-8' });
    expect(new TextDecoder().decode(file.body)).toContain('Più caffè');

    const pdf = await exportArtifact(owner, doc.id, { format: 'pdf', version: 1 });
    const text = Buffer.from(pdf.body).toString('latin1');
    expect(pdf.filename).toBe('offerta-di-primavera-v1.pdf');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text).toContain('(Pi\xf9 caff\xe8, \xe8 cos\xec.)');
    // The cross-reference table points at each object exactly.
    const offsets = [...text.slice(text.lastIndexOf('xref')).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    offsets.forEach((offset, n) => expect(text.slice(offset, offset + 10)).toMatch(new RegExp(`^${n + 1} 0 obj`)));

    const { artifact: code } = await publishArtifact(owner, w.dm.id, { kind: 'code', title: 'Sync job', language: 'typescript', content: 'export const x = 1;' });
    expect((await exportArtifact(owner, code.id, { format: 'file' })).filename).toBe('sync-job-v1.ts');
    const { artifact: page } = await publishArtifact(owner, w.dm.id, { kind: 'html', title: 'Landing', content: '<h1>Hi</h1>' });
    await expect(exportArtifact(owner, page.id, { format: 'pdf' })).rejects.toMatchObject({ code: 'bad_request' });
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const { artifact: image } = await publishArtifact(owner, w.dm.id, { kind: 'image', title: 'Logo', content: png });
    const bytes = await exportArtifact(owner, image.id, { format: 'file' });
    expect([bytes.filename, bytes.contentType, bytes.body[1]]).toEqual(['logo-v1.png', 'image/png', 0x50]);
  });
});
