-- What an agent is told to do, in its owner's words ("Answer booking questions; never promise a
-- discount"). Written on the Agents screen, read by the agent's bridge with the rest of its settings
-- and put in its system prompt. Plain text, not a template: nothing in it is interpreted.
-- Agents stay in `private` (an agent spans workspaces, see 20261130000400_chat.sql), so who may write
-- this is decided by lib/agents, not by a policy: the owner and admins of every workspace the agent
-- appears in, or the person who owns it while they manage the workspace they act from.
alter table private.agents
  add column instructions text not null default '' check (length(instructions) <= 4000);
