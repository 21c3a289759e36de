import { forbidden, isUuid, notFound } from '@/lib/api';
import { createConversation, sendMessage, type DeliveryOutcome } from '@/lib/chat';
import { config } from '@/lib/config';
import { asService, type SessionUser } from '@/lib/db';
import { checkSubmitLimit, type Caller } from '@/lib/topics';
import { memberOrOwner } from '@/lib/workspaces';

/**
 * Tasks that software gives an agent through MCP. A task is a real message: the person who created the
 * API key (or, when that person has left, the workspace's owner) writes it in their DM with the agent,
 * through the same send path as in the app, so the agent gets a delivery, answers in the DM, and the
 * owner can read the exchange there. The task's id is that message's id.
 */

export interface McpCaller {
  workspaceId: string;
  /** The API key (null: the API_KEY environment variable). */
  keyId: string | null;
  /** Who the task is written as. */
  person: SessionUser;
  /** Shown on the message: "via MCP · <key name>". */
  keyName: string;
}

export type TaskStatus = 'queued' | 'working' | 'answered' | 'passed';

export interface Task {
  taskId: string;
  status: TaskStatus;
  agent: { id: string; name: string };
  conversationId: string;
  /** Where a member reads the exchange in the app. */
  link: string;
  /** The agent's messages that answer the task (empty until it has answered). */
  replies: Array<{ messageId: string; body: string; createdAt: string }>;
}

/** The person an API key acts as in its workspace: its creator while a member, else the owner. */
export async function mcpCaller(caller: Extract<Caller, { kind: 'key' }>): Promise<McpCaller> {
  const [key] = caller.keyId
    ? await asService((tx) =>
        tx.query<{ name: string; created_by: string | null }>(`select name, created_by from public.api_keys where id = $1 and workspace_id = $2`, [
          caller.keyId,
          caller.workspaceId,
        ]),
      )
    : [];
  const person = await memberOrOwner(caller.workspaceId, key?.created_by ?? null);
  if (!person) throw forbidden('api.mcp.keyWorkspaceGone');
  return { workspaceId: caller.workspaceId, keyId: caller.keyId, person, keyName: key?.name ?? 'API_KEY' };
}

/**
 * Writes the task in the caller's DM with the agent (opened if there is none yet). A task counts against
 * the key's submit limits, like a topic request.
 */
export async function startTask(caller: McpCaller, agentId: string, text: string): Promise<string> {
  await checkSubmitLimit({ kind: 'key', workspaceId: caller.workspaceId, keyId: caller.keyId });
  const { conversation } = await createConversation(caller.person, { kind: 'dm', workspaceId: caller.workspaceId, agentIds: [agentId] });
  // A person's message resets the loop guard, and in a DM the one agent always gets the turn.
  const sent = await sendMessage({ kind: 'person', user: caller.person }, conversation.id, text, {
    payload: { via: { kind: 'mcp', keyId: caller.keyId, keyName: caller.keyName } },
  });
  return sent.id;
}

type DeliveryStatus = 'waiting' | 'pending' | 'claimed' | 'done' | 'skipped';

/** A delivery not yet done, as a task; `skipped`: another agent answered the message. */
const STATUS_OF_DELIVERY: Record<Exclude<DeliveryStatus, 'done'>, TaskStatus> = { waiting: 'queued', pending: 'queued', claimed: 'working', skipped: 'passed' };

interface TaskRow {
  id: string;
  delivery_id: string;
  conversation_id: string;
  agent_id: string;
  agent_name: string;
  status: DeliveryStatus;
  outcome: DeliveryOutcome | null;
  handled_at: Date | null;
}

/** A task the caller's key gave through MCP, with the agent's answer once there is one. */
export async function readTask(caller: McpCaller, taskId: string): Promise<Task> {
  return asService(async (tx) => {
    const [row] = isUuid(taskId)
      ? await tx.query<TaskRow>(
          `select m.id, d.id as delivery_id, m.conversation_id, d.agent_id, a.name as agent_name, d.status, d.outcome, d.handled_at
             from public.messages m
             join private.deliveries d on d.message_id = m.id
             join private.agents a on a.id = d.agent_id
            where m.id = $1 and m.workspace_id = $2 and m.payload -> 'via' ->> 'kind' = 'mcp'
              and (m.payload -> 'via' ->> 'keyId') is not distinct from $3 and m.deleted_at is null
            order by d.turn, d.seq limit 1`,
          [taskId, caller.workspaceId, caller.keyId],
        )
      : [];
    if (!row) throw notFound('task');
    const status = row.status === 'done' ? (row.outcome === 'replied' ? 'answered' : 'passed') : STATUS_OF_DELIVERY[row.status];
    // The agent works on one message of a conversation at a time: what it wrote between claiming this
    // task's delivery and completing it (the answer commits with the completion) answers this task, and
    // nothing else does. (Compared in SQL: a JS Date would drop the microseconds.)
    const replies = row.handled_at
      ? await tx.query<{ id: string; body: string; created_at: Date }>(
          `select m.id, m.body, m.created_at from public.messages m, private.deliveries d
            where d.id = $1 and m.conversation_id = d.conversation_id and m.author_agent_id = d.agent_id
              and m.created_at between d.claimed_at and d.handled_at and m.deleted_at is null
            order by m.seq`,
          [row.delivery_id],
        )
      : [];
    return {
      taskId: row.id,
      status,
      agent: { id: row.agent_id, name: row.agent_name },
      conversationId: row.conversation_id,
      link: `${config().APP_URL}/w/${caller.workspaceId}/chat/${row.conversation_id}`,
      replies: replies.map((r) => ({ messageId: r.id, body: r.body, createdAt: new Date(r.created_at).toISOString() })),
    };
  });
}

const POLL_MS = 500;

/**
 * Reads the task until the agent has answered or passed, `until` passes, or `signal` aborts; calls
 * `onStatus` each time the status changes (the first read included). Returns the last read.
 */
export async function waitForTask(
  caller: McpCaller,
  taskId: string,
  { until, signal, onStatus }: { until: number; signal?: AbortSignal; onStatus?: (task: Task) => Promise<void> | void },
): Promise<Task> {
  let last: TaskStatus | undefined;
  for (;;) {
    const task = await readTask(caller, taskId);
    if (task.status !== last) {
      last = task.status;
      await onStatus?.(task);
    }
    if (task.status === 'answered' || task.status === 'passed' || Date.now() >= until || signal?.aborted) return task;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(POLL_MS, Math.max(0, until - Date.now())));
      signal?.addEventListener('abort', done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
    });
  }
}
