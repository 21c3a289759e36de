-- Rate-limit windows follow the caller's clock (`p_now`), the one the app uses for everything else it
-- decides about time (and that tests control), instead of the database's now(): one clock decides
-- when a window starts, when it resets and what Retry-After says.
drop function private.hit_rate_limit(text, integer, integer);

create function private.hit_rate_limit(p_key text, p_window_seconds integer, p_limit integer, p_now timestamptz)
returns table (allowed boolean, remaining integer, reset_at timestamptz)
language plpgsql
set search_path = ''
as $$
declare
  v_start timestamptz := to_timestamp(floor(extract(epoch from p_now) / p_window_seconds) * p_window_seconds);
  v_hits integer;
begin
  insert into private.rate_limit_counters as c (key, window_start, hits)
  values (p_key, v_start, 1)
  on conflict (key, window_start) do update set hits = c.hits + 1
  returning c.hits into v_hits;
  -- Old windows are dead weight; the caller's key is the only one touched here.
  delete from private.rate_limit_counters where key = p_key and window_start < v_start;
  return query select v_hits <= p_limit, greatest(p_limit - v_hits, 0), v_start + make_interval(secs => p_window_seconds);
end $$;
revoke execute on function private.hit_rate_limit(text, integer, integer, timestamptz) from public;
