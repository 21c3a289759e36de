-- Bring your own data (lib/imports): customers, services, staff and appointments imported from another
-- tool keep that tool's id in external_id, so importing the same export again updates each row instead
-- of adding it twice. Unique per workspace (two businesses may well both have a customer "1"); null for
-- rows made here, and nulls never collide.
--
-- The import writes as the person under RLS with the policies the planets migration already has
-- (members write customers and appointments, admins services and staff; the import itself is for owners
-- and admins, checked by lib/imports). These grants only add the new column to what they may write.

alter table public.customers add column external_id text check (length(btrim(external_id)) between 1 and 200);
alter table public.services add column external_id text check (length(btrim(external_id)) between 1 and 200);
alter table public.staff add column external_id text check (length(btrim(external_id)) between 1 and 200);
alter table public.appointments add column external_id text check (length(btrim(external_id)) between 1 and 200);

-- The targets of `insert … on conflict (workspace_id, external_id) do update`.
alter table public.customers add constraint customers_external_id_key unique (workspace_id, external_id);
alter table public.services add constraint services_external_id_key unique (workspace_id, external_id);
alter table public.staff add constraint staff_external_id_key unique (workspace_id, external_id);
alter table public.appointments add constraint appointments_external_id_key unique (workspace_id, external_id);

grant insert (external_id), update (external_id) on public.customers, public.services, public.staff, public.appointments to authenticated;
