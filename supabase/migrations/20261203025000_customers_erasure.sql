-- Customers: the notes the front desk keeps on a person, and erasure (the GDPR right to erasure) that
-- keeps the business's history true.
--
-- Erasing a customer (lib/customers, erase.ts) deletes their row and everything that names them, but
-- their appointments stay, with no one attached: the day's takings, the occupancy and the counts of
-- completed visits and no-shows do not change because a person asked to be forgotten. So an appointment
-- may now have no customer, and only erasure leaves it so (`customer_erased_at`, which no user may
-- write): a member cannot book for nobody or unhook a booking from its customer.

alter table public.customers
  add column notes text not null default '' check (length(notes) <= 2000);

grant insert (notes) on public.customers to authenticated;
grant update (notes) on public.customers to authenticated;

alter table public.appointments
  alter column customer_id drop not null,
  add column customer_erased_at timestamptz,
  add constraint appointments_customer_erased_check check ((customer_id is null) = (customer_erased_at is not null));

-- A customer with bookings was deleted together with them (on delete cascade), which erased the
-- business's history along with the person. Now deleting such a customer is refused; erasure detaches
-- the bookings first. (Deleting the workspace still removes both: the check runs at the end of the statement.)
alter table public.appointments
  drop constraint appointments_workspace_id_customer_id_fkey,
  add constraint appointments_workspace_id_customer_id_fkey
    foreign key (workspace_id, customer_id) references public.customers (workspace_id, id);

-- One row per erasure, ids only (nothing that identifies the person): the answer to a retry of the same
-- erasure (idempotent: "erased", not "not found"), and the record of who erased whom and when that
-- the business may be asked to show.
create table private.customer_erasures (
  workspace_id uuid not null references public.workspaces (id) on delete cascade,
  customer_id uuid not null,
  erased_by uuid references auth.users (id) on delete set null,
  erased_at timestamptz not null,
  primary key (workspace_id, customer_id)
);
create index customer_erasures_erased_by_idx on private.customer_erasures (erased_by);
alter table private.customer_erasures enable row level security;
revoke all on table private.customer_erasures from anon, authenticated;
