import { afterEach, expect, it } from 'vitest';
import { createAgent, createAgentKey } from '@/lib/agents';
import { getArtifact } from '@/lib/artifacts';
import { clickAction, readAttachments } from '@/lib/cards';
import { createConversation, listMessages, sendMessage } from '@/lib/chat';
import { deliveriesOf } from '@/lib/chat/test-world';
import { setupTestDatabase } from '@/test/db';
import { waitFor } from '@/test/wait';
import { createUser } from '@/test/fixtures';
import { AgentBridge } from './bridge';
import { inProcessFetch, IN_PROCESS_URL } from '@/server/agent-api';
import { createTurnRunner } from './turn';

/**
 * An agent on the offline model publishes cards and artifacts itself, through its bridge and the
 * agent API (in-process here, as in the hosted runner): the rules of lib/bridge/offline.ts, end to end.
 */

setupTestDatabase();

const bridges: AgentBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((b) => b.stop({ graceMs: 1000 })));
});

async function novaInADm() {
  const owner = await createUser('owner');
  const agent = await createAgent(owner, { name: 'Nova', runtime: 'local', backend: 'offline' });
  const { key } = await createAgentKey(owner, agent.id, 'laptop');
  bridges.push(new AgentBridge({ url: IN_PROCESS_URL, fetch: inProcessFetch, credential: async () => key, runTurn: createTurnRunner() }).start());
  const { conversation } = await createConversation(owner, { kind: 'dm', workspaceId: agent.workspaceIds[0]!, agentIds: [agent.id] });
  const history = async () => (await listMessages(owner, conversation.id)).messages;
  return { owner, dm: conversation, say: (body: string) => sendMessage({ kind: 'person', user: owner }, conversation.id, body), history };
}

it('posts a briefing card when asked, and saves it as a document when its button is clicked, showing the outcome', async () => {
  const { owner, say, history } = await novaInADm();
  await say('Can we open at 8 on Saturday?');
  await waitFor(async () => (await history()).length === 2, 'the acknowledgement');
  const asked = await say('Nova, a briefing please');

  const cardMessage = await waitFor(async () => (await history()).find((m) => readAttachments(m.payload).cards.length > 0), 'the briefing card');
  expect(cardMessage).toMatchObject({ author: { kind: 'agent', name: 'Nova' }, body: 'Here is what was said in this direct message, as a briefing.' });
  const [card] = readAttachments(cardMessage.payload).cards;
  expect(card).toMatchObject({ type: 'briefing', template: { name: 'briefing', version: 1 }, actions: [{ id: 'save_document', verb: 'save_document', approval: false }] });
  expect(card!.blocks[0]).toEqual({ kind: 'title', text: 'Briefing: this direct message' });
  expect(card!.blocks).toContainEqual({ kind: 'list', heading: 'Questions asked', ordered: false, items: [{ text: 'Can we open at 8 on Saturday?', detail: 'owner', tone: 'warning' }] });
  // The card was Nova's answer: the delivery completes as replied, with no extra message after it.
  const [delivery] = await waitFor(async () => {
    const rows = await deliveriesOf(asked.id);
    return rows[0]?.status === 'done' && rows;
  }, 'the delivery to complete');
  expect(delivery).toMatchObject({ outcome: 'replied' });
  expect((await history()).at(-1)!.id).toBe(cardMessage.id);

  const click = await clickAction(owner, cardMessage.id, { cardId: 'c1', actionId: 'save_document' });
  expect(click.status).toBe('pending');
  const chipMessage = await waitFor(async () => (await history()).find((m) => readAttachments(m.payload).artifacts.length > 0), 'the document');
  const [chip] = readAttachments(chipMessage.payload).artifacts;
  expect(chip).toMatchObject({ kind: 'document', title: 'Briefing: this direct message', version: 1 });
  const outcome = await waitFor(async () => {
    const shown = (await history()).find((m) => m.id === cardMessage.id)!;
    return readAttachments(shown.payload).actionState['c1:save_document']?.status === 'done' && readAttachments(shown.payload).actionState['c1:save_document'];
  }, 'the outcome on the card');
  expect(outcome.outcome).toBe('Saved as the document “Briefing: this direct message”.');
  const document = await getArtifact({ kind: 'person', user: owner }, chip!.id);
  expect(document.current.content).toMatch(/^# Briefing: this direct message\n/);
  expect(document.current.content).toContain('- Can we open at 8 on Saturday? — owner');
});

it('drafts a markdown document when asked to write one', async () => {
  const { owner, say, history } = await novaInADm();
  await say('Please write a document about the spring menu');
  const chipMessage = await waitFor(async () => (await history()).find((m) => readAttachments(m.payload).artifacts.length > 0), 'the draft');
  expect(chipMessage).toMatchObject({ author: { name: 'Nova' }, body: 'A first draft of “The spring menu”, to edit.' });
  const [chip] = readAttachments(chipMessage.payload).artifacts;
  const draft = await getArtifact({ kind: 'person', user: owner }, chip!.id);
  expect(draft).toMatchObject({ kind: 'document', title: 'The spring menu', currentVersion: 1 });
  expect(draft.current.content).toContain('> Please write a document about the spring menu — owner');
});
