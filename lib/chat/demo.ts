import type { Tx } from '@/lib/db';
import type { DemoContext } from '@/lib/demo';

/**
 * The chat of the Studio Aurora demo: two hosted agents of the owner on the offline model — Nova
 * (receptionist) and Atlas (chief of staff) — a #general channel where Atlas asked Nova something in
 * a side thread (resolved), and a DM with Nova whose last answer is still unread. Rows are written
 * directly, as history: nothing here is queued for the agents. Runs inside the demo's transaction.
 */
export async function seedChatDemo(tx: Tx, { ownerId, workspaceId, now }: DemoContext): Promise<void> {
  const agent = async (name: string, role: string, capabilities: string[]) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into private.agents (owner_user_id, name, role, capabilities, backend, runtime) values ($1, $2, $3, $4, 'offline', 'hosted') returning id`,
      [ownerId, name, role, capabilities],
    );
    // Shown everywhere its owner is, like any new agent.
    await tx.query(`insert into public.workspace_agents (workspace_id, agent_id) select workspace_id, $1 from public.workspace_members where user_id = $2`, [
      row!.id,
      ownerId,
    ]);
    return row!.id;
  };
  const nova = await agent('Nova', 'Receptionist', ['bookings', 'reminders', 'waitlist']);
  const atlas = await agent('Atlas', 'Chief of staff', []);

  const conversation = async (kind: 'channel' | 'dm' | 'thread', fields: { name?: string; parentId?: string; parentMessageId?: string }) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into public.conversations (workspace_id, kind, name, visibility, status, status_changed_at, parent_conversation_id, parent_message_id, created_by_user_id, created_by_agent_id)
       values ($1, $2, $3, $4, $5, case when $2 = 'thread' then $10::timestamptz end, $6, $7, $8, $9) returning id`,
      [
        workspaceId,
        kind,
        fields.name ?? null,
        kind === 'channel' ? 'public' : 'private',
        kind === 'thread' ? 'resolved' : null,
        fields.parentId ?? null,
        fields.parentMessageId ?? null,
        kind === 'thread' ? null : ownerId,
        kind === 'thread' ? atlas : null,
        now,
      ],
    );
    return row!.id;
  };
  const join = (conversationId: string, members: Array<{ user?: string; agent?: string }>) =>
    tx.query(
      `insert into public.conversation_members (workspace_id, conversation_id, user_id, agent_id)
       select $1, $2, u, a from unnest($3::uuid[], $4::uuid[]) with ordinality as t (u, a, n) order by n`,
      [workspaceId, conversationId, members.map((m) => m.user ?? null), members.map((m) => m.agent ?? null)],
    );

  let minutesAgo = 180;
  const post = async (conversationId: string, author: { user: string } | { agent: string; name: string }, body: string, payload: object = {}) => {
    minutesAgo -= 7;
    const [row] = await tx.query<{ id: string; seq: number; created_at: Date }>(
      `insert into public.messages (workspace_id, conversation_id, author_kind, author_user_id, author_agent_id, author_name, body, payload, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, $10::timestamptz - make_interval(mins => $9)) returning id, seq, created_at`,
      [
        workspaceId,
        conversationId,
        'user' in author ? 'person' : 'agent',
        'user' in author ? author.user : null,
        'agent' in author ? author.agent : null,
        'agent' in author ? author.name : 'Giulia Rossi',
        body,
        JSON.stringify(payload),
        minutesAgo,
        now,
      ],
    );
    await tx.query(`update public.conversations set last_message_seq = $2, last_message_at = $3 where id = $1`, [conversationId, row!.seq, row!.created_at]);
    return row!;
  };
  const giulia = { user: ownerId };
  const asNova = { agent: nova, name: 'Nova' };
  const asAtlas = { agent: atlas, name: 'Atlas' };

  const general = await conversation('channel', { name: 'general' });
  await join(general, [giulia, { agent: atlas }, { agent: nova }]);
  await post(general, giulia, 'Buongiorno! Domani abbiamo tre colorazioni di fila: teniamo d’occhio i ritardi.');
  await post(general, asNova, 'Fatto: ho mandato il promemoria alle clienti delle **9:30**, **11:00** e **14:30**. Due hanno già confermato.');
  const asked = await post(general, asAtlas, 'Il giovedì pomeriggio resta spesso vuoto. Chiedo a Nova chi è in lista d’attesa, poi propongo una promo.');
  const thread = await conversation('thread', { parentId: general, parentMessageId: asked.id });
  await tx.query(`update public.messages set payload = $2::text::jsonb where id = $1`, [asked.id, JSON.stringify({ sideThreads: [thread] })]);
  await join(thread, [{ agent: atlas }, { agent: nova }]);
  await post(thread, asAtlas, 'Chi è in lista d’attesa per il giovedì pomeriggio?');
  await post(thread, asNova, 'Tre clienti: Marta B., Sara L. e Paola V. Tutte preferiscono dopo le 15.');
  const summary = await post(general, asAtlas, 'Nova conferma: **3 clienti** in lista d’attesa per il giovedì dopo le 15. Propongo di scrivere prima a loro, poi la promo *-15%*.', {
    resolvesThread: thread,
  });
  await tx.query(`update public.conversations set resolution_message_id = $2 where id = $1`, [thread, summary.id]);

  const dm = await conversation('dm', {});
  await join(dm, [giulia, { agent: nova }]);
  await post(dm, giulia, 'Nova, chi è in lista d’attesa per sabato?');
  await post(dm, asNova, 'Sabato ci sono due persone in lista d’attesa:\n- Marta B. (taglio)\n- Sara L. (piega)\n\nSe si libera un posto le avviso io.');

  // Giulia has read #general; Nova's last answer in the DM is new.
  await tx.query(
    `update public.conversation_members m set last_read_seq = case when c.kind = 'dm' then c.last_message_seq - 1 else c.last_message_seq end
       from public.conversations c where c.id = m.conversation_id and m.user_id = $1 and c.workspace_id = $2`,
    [ownerId, workspaceId],
  );
}
