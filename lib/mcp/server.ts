import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { listWorkspaceAgents, type Agent } from '@/lib/agents';
import { ApiError } from '@/lib/api';
import { MAX_BODY } from '@/lib/chat';
import { asciiSlug } from '@/lib/text';
import { readTask, startTask, waitForTask, type McpCaller, type Task } from './tasks';

/** Most MCP clients give up on a request after 60 s without a word: by default a call answers before. */
const DEFAULT_WAIT_SECONDS = 50;
/** As long as an agent's turn may run (the bridge's `turnSeconds`). */
const MAX_WAIT_SECONDS = 600;
/** While it waits, a call that asked for progress hears something this often, so its client keeps waiting. */
const KEEPALIVE_MS = 15_000;

const waitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .optional()
  .describe(`How long to wait for the answer, in seconds (default ${DEFAULT_WAIT_SECONDS}). If the agent is still working then, call get_task later.`);

const taskOutput = {
  task_id: z.string().describe('Pass it to get_task to read the answer later.'),
  status: z.enum(['queued', 'working', 'answered', 'passed']),
  agent: z.string(),
  answer: z.string().describe("The agent's answer; empty until it has answered."),
  link: z.string().describe('Where the exchange can be read in Multiverbe.'),
};

const PROGRESS: Record<Task['status'], { progress: number; message: (agent: string) => string }> = {
  queued: { progress: 0, message: (agent) => `Waiting for ${agent} to pick up the task.` },
  working: { progress: 1, message: (agent) => `${agent} is working on it.` },
  answered: { progress: 2, message: (agent) => `${agent} answered.` },
  passed: { progress: 2, message: (agent) => `${agent} passed on the task.` },
};

/**
 * The MCP server of one caller's workspace, built per request (the endpoint is stateless): one
 * `ask_<agent>` tool per agent the workspace shows, which gives the agent a real task, and `get_task`.
 */
export async function workspaceMcpServer(caller: McpCaller): Promise<McpServer> {
  const server = new McpServer(
    { name: 'multiverbe', version: '1.0.0' },
    {
      instructions:
        "Each ask_<agent> tool gives one of this workspace's agents a task, as if its owner had written it to the agent in Multiverbe: the agent answers there, and the answer comes back here. Answers can take minutes; when a call returns before the agent is done, read the answer later with get_task.",
    },
  );

  for (const [toolName, agent] of toolNames(await listWorkspaceAgents(caller.person, caller.workspaceId))) {
    server.registerTool(
      toolName,
      {
        title: `Ask ${agent.name}`,
        description:
          `Gives ${agent.name}${agent.role ? ` (${agent.role})` : ''} a task and returns the answer.` +
          (agent.capabilities.length ? ` Knows about: ${agent.capabilities.join(', ')}.` : '') +
          ` The task is a real message from the key's owner in their conversation with ${agent.name} in Multiverbe; anything the agent proposes still needs the owner's approval there.`,
        inputSchema: {
          // The NUL character cannot be stored (Postgres text): refused here, as lib/api refuses it in any body.
          task: z
            .string()
            .trim()
            .min(1, 'Write the task first')
            .max(MAX_BODY)
            .refine((task) => !task.includes('\u0000'), 'Text cannot contain the NUL character (\\u0000)')
            .describe('What the agent should do or answer, in plain words.'),
          wait_seconds: waitSeconds,
        },
        outputSchema: taskOutput,
        annotations: { title: `Ask ${agent.name}`, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      async ({ task, wait_seconds }, extra) => {
        // A local agent that is not connected waits for its owner's laptop: waiting for it here would only
        // keep the caller hanging. (A hosted one is started by the app, and is waited for.)
        const away = agent.runtime === 'local' && !agent.online;
        return answer(async () => wait(caller, await startTask(caller, agent.id, task), away ? 0 : (wait_seconds ?? DEFAULT_WAIT_SECONDS), extra), away);
      },
    );
  }

  server.registerTool(
    'get_task',
    {
      title: 'Read a task',
      description: 'The status of a task given with an ask_<agent> tool, and the answer once the agent has given it.',
      inputSchema: {
        task_id: z.string().describe('The task_id an ask_<agent> call returned.'),
        wait_seconds: waitSeconds.describe('How long to wait for the answer if it is not there yet, in seconds (default 0).'),
      },
      outputSchema: taskOutput,
      annotations: { title: 'Read a task', readOnlyHint: true, openWorldHint: false },
    },
    async ({ task_id, wait_seconds }, extra) => answer(() => (wait_seconds ? wait(caller, task_id, wait_seconds, extra) : readTask(caller, task_id))),
  );
  return server;
}

interface CallExtra {
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification: (notification: ServerNotification) => Promise<void>;
}

/** Waits for the answer, telling a caller that asked for progress each step, and every 15 s meanwhile. */
async function wait(caller: McpCaller, taskId: string, seconds: number, extra: CallExtra): Promise<Task> {
  const token = extra._meta?.progressToken;
  const until = Date.now() + seconds * 1000;
  if (token === undefined) return waitForTask(caller, taskId, { until, signal: extra.signal });
  let latest: Task | undefined;
  const notify = (task: Task) => {
    const step = PROGRESS[task.status];
    return extra.sendNotification({
      method: 'notifications/progress',
      params: { progressToken: token, progress: step.progress, total: 2, message: step.message(task.agent.name) },
    });
  };
  const keepalive = setInterval(() => {
    if (latest) notify(latest).catch(() => {});
  }, KEEPALIVE_MS);
  try {
    return await waitForTask(caller, taskId, {
      until,
      signal: extra.signal,
      onStatus: (task) => {
        latest = task;
        return notify(task);
      },
    });
  } finally {
    clearInterval(keepalive);
  }
}

/**
 * A task as a tool result; what the app refuses (not found, over the limit…) as a tool error the model can read.
 * `away`: the agent runs on its owner's machine, which was not connected when the task was given.
 */
async function answer(read: () => Promise<Task>, away = false): Promise<CallToolResult> {
  let task: Task;
  try {
    task = await read();
  } catch (error) {
    if (error instanceof ApiError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    throw error;
  }
  const answerText = task.replies.map((r) => r.body).join('\n\n');
  return {
    content: [{ type: 'text', text: task.status === 'answered' ? answerText : statusText(task, away) }],
    structuredContent: { task_id: task.taskId, status: task.status, agent: task.agent.name, answer: answerText, link: task.link },
  };
}

/** What a task without an answer is doing, for the calling model. */
function statusText({ agent, status, taskId, link }: Task, away: boolean): string {
  if (status === 'passed') return `${agent.name} passed on this task without answering. It can be read at ${link}.`;
  if (status === 'queued' && away) {
    return `${agent.name} is offline (not connected to Multiverbe), so the task waits for it: it answers when it connects. Call get_task with task_id ${taskId} to read the answer then.`;
  }
  const doing = status === 'working' ? 'is still working on it' : 'has not picked up the task yet';
  return `${agent.name} ${doing}. Call get_task with task_id ${taskId} to read the answer later.`;
}

/**
 * `ask_<name>` for each agent, in ASCII lower case as tool names must be; two agents whose names read
 * the same (agents of different people may share a name) get their id's start appended.
 */
export function toolNames<A extends Pick<Agent, 'id' | 'name'>>(agents: A[]): Array<[string, A]> {
  const slugs = agents.map((agent) => asciiSlug(agent.name, { separator: '_', maxLength: 40, fallback: 'agent' }));
  const shared = slugs.filter((slug, i) => slugs.indexOf(slug) !== i);
  return agents.map((agent, i) => [shared.includes(slugs[i]!) ? `ask_${slugs[i]}_${agent.id.slice(0, 8)}` : `ask_${slugs[i]}`, agent]);
}
