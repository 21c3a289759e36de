-- A run's tool-call records ([{name, ok, iteration, ms, error?, note?}], never the arguments) are written
-- once and read back whole by the run detail: nothing queries inside them. As json they are kept as the
-- text that was sent, checked but not converted to jsonb's binary form, a cost every run paid in proportion
-- to its number of calls (bench/agent-loop). Records no longer carry an argsHash: nothing read it, and the
-- repeated-failure guard keys its count by the call itself.
alter table public.agent_runs alter column tool_calls drop default;
alter table public.agent_runs alter column tool_calls type json using tool_calls::json;
alter table public.agent_runs alter column tool_calls set default '[]'::json;
