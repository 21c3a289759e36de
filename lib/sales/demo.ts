import type { Tx } from '@/lib/db';

/**
 * Studio Aurora's sales team for the demo: the owner and two salespeople (members without a password:
 * they exist to own deals, not to sign in), the planet seed's deals shared among the three with where
 * they come from, a quarter of won deals, this month's and quarter's quotas, one commission plan, a
 * call script per stage and two territory models (the one by area active). Runs after the planets
 * seeder, in the demo's transaction; a handful of statements, so the demo stays quick to seed.
 */
export const DEMO_REPS = [
  { email: 'marco.bianchi@demo.invalid', name: 'Marco Bianchi' },
  { email: 'sara.conti@demo.invalid', name: 'Sara Conti' },
] as const;

const PRODUCTS = ['Pacchetto sposa', 'Abbonamento 10 pieghe', 'Convenzione aziendale', 'Servizio fotografico', 'Acconciature evento'];
const PLACES = [
  { postcode: '20121', city: 'Milano' },
  { postcode: '20900', city: 'Monza' },
  { postcode: '20143', city: 'Milano' },
  { postcode: '24121', city: 'Bergamo' },
];
const SOURCES = ['instagram', 'referral', 'website', 'walk_in', 'google'];

/** By stage position (the planet seed's 1 … 4). */
const SCRIPTS: Record<number, string> = {
  1: 'Buongiorno {{customer}}, sono {{owner}} di Studio Aurora. Ci ha contattati per «{{deal}}»: ha due minuti per raccontarmi cosa desidera e per quando?',
  2: 'Buongiorno {{customer}}, sono {{owner}}. Le ho mandato il preventivo per «{{deal}}» ({{value}}); ci eravamo sentiti il {{last_contact}}. Ha domande sul preventivo? Possiamo fissare una prova?',
  3: 'Buongiorno {{customer}}, sono {{owner}}. Riprendo la nostra conversazione del {{last_contact}} su «{{deal}}» ({{value}}): cosa le manca per decidere? Posso tenerle la data fino a venerdì.',
  4: 'Buongiorno {{customer}}, grazie ancora per aver scelto Studio Aurora per «{{deal}}». Le va di lasciarci una recensione o di presentarci un’amica?',
};

export async function seedSalesDemo(tx: Tx, demo: { ownerId: string; workspaceId: string; now: Date }): Promise<void> {
  const ws = demo.workspaceId;
  const reps = await tx.query<{ id: string }>(
    `insert into auth.users (email, raw_user_meta_data, email_confirmed_at)
     select x.email, jsonb_build_object('display_name', x.name, 'locale', 'it', 'time_zone', 'Europe/Rome'), $2::timestamptz
       from jsonb_to_recordset($1::jsonb) as x(email text, name text) returning id`,
    [JSON.stringify(DEMO_REPS), demo.now.toISOString()],
  );
  const team = [demo.ownerId, ...reps.map((r) => r.id)];
  await tx.query(`insert into public.workspace_members (workspace_id, user_id, role) select $1, unnest($2::uuid[]), 'member'`, [ws, team.slice(1)]);

  // The planet seed's deals, shared round the team, with a product, a place and a source each.
  await tx.query(
    `with d as (select id, title, row_number() over (order by created_at, id) - 1 as n from public.deals where workspace_id = $1)
     update public.deals t set
       owner_user_id = ($2::uuid[])[(d.n % 3) + 1],
       product = (select p from unnest($3::text[]) p where d.title like p || '%' limit 1),
       postcode = ($4::text[])[(d.n % 4) + 1], city = ($5::text[])[(d.n % 4) + 1], source = ($6::text[])[(d.n % 5) + 1]
     from d where t.id = d.id`,
    [ws, team, PRODUCTS, PLACES.map((p) => p.postcode), PLACES.map((p) => p.city), SOURCES],
  );
  // A quarter of won deals: every person closes about one a week, some weeks more.
  await tx.query(
    `insert into public.deals (workspace_id, title, owner_user_id, stage_id, value_cents, status, product, city, postcode, source, created_at, last_activity_at, closed_at)
     select $1, p.product || ' – ' || (array['Hotel Brera', 'Studio Legale Ferri', 'Palestra Vita', 'Atelier Neri', 'Caffè Duomo'])[1 + (g + k) % 5],
            ($2::uuid[])[k + 1], (select id from public.pipeline_stages where workspace_id = $1 order by position desc limit 1),
            (12 + ((g * 7 + k * 5) % 30)) * 2500, 'won', p.product, 'Milano', '20121', 'referral',
            $3::timestamptz - make_interval(days => g * 7 + k * 2 + 20), $3::timestamptz - make_interval(days => g * 7 + k * 2 + 1),
            $3::timestamptz - make_interval(days => g * 7 + k * 2 + 1)
       from generate_series(0, 12) g cross join generate_series(0, 2) k
       cross join lateral (select ($4::text[])[1 + (g + k) % 5] as product) p
      where (g + k) % 4 <> 3`,
    [ws, team, demo.now.toISOString(), PRODUCTS],
  );

  const [{ month, quarter }] = (await tx.query<{ month: string; quarter: string }>(
    `select to_char(date_trunc('month', $1::timestamptz at time zone w.time_zone), 'YYYY-MM-DD') as month,
            to_char(date_trunc('quarter', $1::timestamptz at time zone w.time_zone), 'YYYY-MM-DD') as quarter
       from public.workspaces w where w.id = $2`,
    [demo.now.toISOString(), ws],
  )) as [{ month: string; quarter: string }];
  await tx.query(
    `insert into public.sales_quotas (workspace_id, user_id, period, starts_on, metric, target)
     select $1::uuid, u, 'month', $3::date, 'won_value', t from unnest($2::uuid[], array[250000, 200000, 200000]::bigint[]) as x(u, t)
     union all select $1::uuid, u, 'quarter', $4::date, 'won_value', t from unnest($2::uuid[], array[750000, 600000, 600000]::bigint[]) as x(u, t)
     union all select $1::uuid, null::uuid, 'month', $3::date, 'won_value', 650000::bigint
     union all select $1::uuid, null::uuid, 'quarter', $4::date, 'won_count', 36::bigint`,
    [ws, team, month, quarter],
  );

  await tx.query(
    `with plan as (
       insert into public.commission_plans (workspace_id, name, period, base_rate_bp, tiers, product_rates, cap_cents)
       values ($1, 'Standard', 'month', 800, '[{"fromPct": 100, "rateBp": 1200}, {"fromPct": 150, "rateBp": 1500}]',
               '[{"product": "Convenzione aziendale", "rateBp": 500}]', 150000) returning id)
     insert into public.commission_assignments (workspace_id, user_id, plan_id) select $1, unnest($2::uuid[]), plan.id from plan`,
    [ws, team],
  );

  await tx.query(
    `insert into public.call_scripts (workspace_id, stage_id, body, updated_at)
     select $1, s.id, x.value, $3::timestamptz from public.pipeline_stages s
       join jsonb_each_text($2::jsonb) x on x.key::int = s.position where s.workspace_id = $1`,
    [ws, JSON.stringify(SCRIPTS), demo.now.toISOString()],
  );

  await tx.query(
    `with area as (insert into public.sales_territory_models (workspace_id, name, active) values ($1, 'Per zona', true) returning id),
          sector as (insert into public.sales_territory_models (workspace_id, name, active) values ($1, 'Per canale', false) returning id)
     insert into public.sales_territories (workspace_id, model_id, name, owner_user_id, position, rules)
     select $1::uuid, area.id, 'Milano centro', $3::uuid, 0, '[{"field": "postcode", "value": "201"}]'::jsonb from area
     union all select $1::uuid, area.id, 'Brianza', $4::uuid, 1, '[{"field": "city", "value": "Monza"}]' from area
     union all select $1::uuid, area.id, 'Bergamo', $2::uuid, 2, '[{"field": "city", "value": "Bergamo"}]' from area
     union all select $1::uuid, sector.id, 'Passaparola', $2::uuid, 0, '[{"field": "source", "value": "referral"}]' from sector
     union all select $1::uuid, sector.id, 'Social', $3::uuid, 1, '[{"field": "source", "value": "instagram"}]' from sector
     union all select $1::uuid, sector.id, 'Web', $4::uuid, 2, '[{"field": "source", "value": "website"}, {"field": "source", "value": "google"}]' from sector`,
    [ws, ...team],
  );
}
