import { describe, expect, it } from 'vitest';
import { signIn } from '@/lib/auth';
import { seedDemo } from '@/lib/demo';
import { setupTestDatabase } from '@/test/db';
import { listConversations, listMessages } from '.';

setupTestDatabase();

describe('the chat demo', () => {
  it('gives Studio Aurora a #general with a resolved side thread and a DM with an unread answer from Nova', async () => {
    const demo = (await seedDemo())!;
    const { user } = await signIn({ email: demo.email, password: demo.password }, '127.0.0.1');
    const conversations = await listConversations(user, demo.workspaceId);
    expect(conversations.map((c) => [c.kind, c.name, c.unread])).toEqual([
      ['dm', null, 1],
      ['channel', 'general', 0],
    ]);
    const general = conversations.find((c) => c.kind === 'channel')!;
    expect(general.members.map((m) => m.name)).toEqual(['Giulia Rossi', 'Atlas', 'Nova']);
    const { messages } = await listMessages(user, general.id);
    expect(messages.map((m) => m.author.name)).toEqual(['Giulia Rossi', 'Nova', 'Atlas', 'Atlas']);
    expect(messages[2]!.sideThreads).toEqual([{ id: expect.any(String), status: 'resolved' }]);
    expect(messages[3]!.payload.resolvesThread).toBe(messages[2]!.sideThreads[0]!.id);
    expect((await listMessages(user, messages[2]!.sideThreads[0]!.id)).messages).toHaveLength(2);
  });
});
