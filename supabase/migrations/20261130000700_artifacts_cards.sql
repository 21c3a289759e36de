-- Artifacts and result cards.
--
-- Artifacts: versioned objects (a markdown document, code, an HTML page, a table, an image) attached
-- to a conversation. They have no permission model of their own: a row is readable exactly when its
-- conversation is (the same `private.visible_conversation_ids()` as messages), so a non-member never
-- reads one through any route. Every edit is a new row in artifact_versions; nothing is overwritten.
--
-- Cards: an agent's structured result is stamped into its message's payload (the layout resolved
-- against the template of the day), so the card never changes afterwards. The template library is
-- platform-wide (not a workspace's), hence private. Button clicks are recorded in card_actions: the
-- event handed to the agent, the approval it may need first, and the outcome the agent reports.
--
-- Who writes: only lib/artifacts and lib/cards, in the caller's transaction after an RLS-checked
-- read (people) or a membership check (agents), like the send path. People only select here.

-- Artifacts ------------------------------------------------------------------------------------------
create table public.artifacts (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  conversation_id uuid not null,
  -- The message that published it (its chip in the conversation).
  message_id uuid references public.messages (id) on delete set null,
  kind text not null check (kind in ('document', 'code', 'html', 'table', 'image')),
  -- The current version's title and language (each version keeps its own too).
  title text not null check (length(title) between 1 and 200),
  language text check (language ~ '^[a-z0-9+#._-]{1,40}$'),
  current_version integer not null default 1 check (current_version >= 1),
  created_by_user_id uuid references auth.users (id) on delete set null,
  created_by_agent_id uuid references private.agents (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (id, workspace_id, conversation_id),
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  check (kind = 'code' or language is null)
);
create index artifacts_conversation_idx on public.artifacts (conversation_id, workspace_id, updated_at desc);
create index artifacts_workspace_idx on public.artifacts (workspace_id, updated_at desc);
create index artifacts_message_idx on public.artifacts (message_id);
create index artifacts_created_by_user_idx on public.artifacts (created_by_user_id);
create index artifacts_created_by_agent_idx on public.artifacts (created_by_agent_id);

create table public.artifact_versions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  conversation_id uuid not null,
  artifact_id uuid not null,
  version integer not null check (version >= 1),
  title text not null check (length(title) between 1 and 200),
  language text check (language ~ '^[a-z0-9+#._-]{1,40}$'),
  -- Text for every kind; an image is its URL (https or a data: URL).
  content text not null check (length(content) <= 2000000),
  note text not null default '' check (length(note) <= 300),
  -- A restore copies an earlier version into a new one and says which.
  restored_from integer check (restored_from >= 1),
  author_kind text not null check (author_kind in ('person', 'agent')),
  author_user_id uuid references auth.users (id) on delete set null,
  author_agent_id uuid references private.agents (id) on delete set null,
  -- The name at the time of writing: history keeps reading right after renames.
  author_name text not null,
  created_at timestamptz not null default now(),
  unique (artifact_id, version),
  foreign key (artifact_id, workspace_id, conversation_id) references public.artifacts (id, workspace_id, conversation_id) on delete cascade,
  check (author_kind = 'person' and author_agent_id is null or author_kind = 'agent' and author_user_id is null)
);
create index artifact_versions_artifact_idx on public.artifact_versions (artifact_id, workspace_id, conversation_id);
create index artifact_versions_workspace_idx on public.artifact_versions (workspace_id);
create index artifact_versions_conversation_idx on public.artifact_versions (conversation_id);
create index artifact_versions_author_user_idx on public.artifact_versions (author_user_id);
create index artifact_versions_author_agent_idx on public.artifact_versions (author_agent_id);

-- A comment is made on one version (optionally on one of its lines, whose text it keeps), and is
-- shown on later versions too: on the same line where that line survived, as "outdated" where not.
create table public.artifact_comments (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  conversation_id uuid not null,
  artifact_id uuid not null,
  version integer not null,
  line integer check (line >= 1),
  quote text check (length(quote) <= 500),
  body text not null check (length(body) between 1 and 4000),
  author_kind text not null check (author_kind in ('person', 'agent')),
  author_user_id uuid references auth.users (id) on delete set null,
  author_agent_id uuid references private.agents (id) on delete set null,
  author_name text not null,
  created_at timestamptz not null default now(),
  foreign key (artifact_id, version) references public.artifact_versions (artifact_id, version) on delete cascade,
  foreign key (artifact_id, workspace_id, conversation_id) references public.artifacts (id, workspace_id, conversation_id) on delete cascade,
  check ((line is null) = (quote is null)),
  check (author_kind = 'person' and author_agent_id is null or author_kind = 'agent' and author_user_id is null)
);
create index artifact_comments_artifact_idx on public.artifact_comments (artifact_id, created_at);
create index artifact_comments_version_idx on public.artifact_comments (artifact_id, version);
create index artifact_comments_scope_idx on public.artifact_comments (artifact_id, workspace_id, conversation_id);
create index artifact_comments_workspace_idx on public.artifact_comments (workspace_id);
create index artifact_comments_conversation_idx on public.artifact_comments (conversation_id);
create index artifact_comments_author_user_idx on public.artifact_comments (author_user_id);
create index artifact_comments_author_agent_idx on public.artifact_comments (author_agent_id);

-- Card actions ---------------------------------------------------------------------------------------
-- One row per button click. 'pending': handed to the agent, waiting for its outcome;
-- 'awaiting_approval': an external or destructive action waiting for an owner's or admin's OK until
-- `expires_at` (then 'expired'); 'rejected'; 'done' / 'failed': the agent reported the outcome.
create table public.card_actions (
  id uuid primary key default gen_random_uuid(),
  workspace_id uuid not null,
  conversation_id uuid not null,
  -- The message carrying the card.
  message_id uuid not null,
  card_id text not null check (length(card_id) between 1 and 40),
  action_id text not null check (length(action_id) between 1 and 40),
  verb text not null check (verb ~ '^[a-z][a-z0-9_]{0,39}$'),
  -- The agent that published the card and acts on the click.
  agent_id uuid references private.agents (id) on delete set null,
  status text not null check (status in ('awaiting_approval', 'pending', 'done', 'failed', 'rejected', 'expired')),
  outcome text check (length(outcome) <= 500),
  clicked_by uuid references auth.users (id) on delete set null,
  -- The approval card asking for the OK, and the message that handed the click to the agent.
  approval_message_id uuid references public.messages (id) on delete set null,
  event_message_id uuid references public.messages (id) on delete set null,
  expires_at timestamptz,
  decided_by uuid references auth.users (id) on delete set null,
  decided_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  foreign key (message_id, conversation_id) references public.messages (id, conversation_id) on delete cascade,
  foreign key (conversation_id, workspace_id) references public.conversations (id, workspace_id) on delete cascade,
  check (status <> 'awaiting_approval' or expires_at is not null)
);
create index card_actions_message_idx on public.card_actions (message_id, conversation_id);
create index card_actions_conversation_idx on public.card_actions (conversation_id, workspace_id);
create index card_actions_workspace_idx on public.card_actions (workspace_id);
create index card_actions_agent_idx on public.card_actions (agent_id, status);
create index card_actions_clicked_by_idx on public.card_actions (clicked_by);
create index card_actions_decided_by_idx on public.card_actions (decided_by);
create index card_actions_approval_message_idx on public.card_actions (approval_message_id);
create index card_actions_event_message_idx on public.card_actions (event_message_id);
-- The expiry sweep.
create index card_actions_expiry_idx on public.card_actions (expires_at) where status = 'awaiting_approval';

-- Card templates ---------------------------------------------------------------------------------------
-- The curated library, shared by every workspace. A change is a new version (the latest is used for
-- new cards; sent cards keep the layout they were stamped with); retiring a name deletes the template
-- for new cards, which then fall back to the default layout of their type.
create table private.card_templates (
  name text not null check (name ~ '^[a-z][a-z0-9_.-]{0,62}$'),
  version integer not null check (version >= 1),
  result_type text not null check (result_type ~ '^[a-z][a-z0-9_]{0,39}$'),
  description text not null default '' check (length(description) <= 200),
  -- Template blocks (lib/cards/layout.ts `templateSchema` validates them when read).
  layout jsonb not null check (jsonb_typeof(layout) = 'array'),
  retired_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (name, version)
);
create index card_templates_type_idx on private.card_templates (result_type);

-- Privileges -------------------------------------------------------------------------------------------
revoke all on table private.card_templates from anon, authenticated;
revoke all on table public.artifacts, public.artifact_versions, public.artifact_comments, public.card_actions from anon, authenticated;
grant select on public.artifacts, public.artifact_versions, public.artifact_comments, public.card_actions to authenticated;

alter table public.artifacts enable row level security;
alter table public.artifact_versions enable row level security;
alter table public.artifact_comments enable row level security;
alter table public.card_actions enable row level security;

create policy artifacts_select on public.artifacts for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy artifact_versions_select on public.artifact_versions for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy artifact_comments_select on public.artifact_comments for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));
create policy card_actions_select on public.card_actions for select to authenticated
  using (workspace_id in (select private.member_workspace_ids()) and conversation_id in (select private.visible_conversation_ids()));

-- The curated templates, version 1 ---------------------------------------------------------------------
-- Labels carry both languages; `{{path}}` fills in the result's data; a block whose data is missing
-- is left out of the card.
insert into private.card_templates (name, version, result_type, description, layout) values
('hotel', 1, 'hotel', 'Photo, name, guest rating, nightly price, stay details and amenities', $json$[
  {"kind":"image","src":"image","alt":"{{name}}"},
  {"kind":"title","text":"{{name}}","subtitle":"{{city}}"},
  {"kind":"rating","value":"rating","max":10,"count":"reviews"},
  {"kind":"price","amount":"pricePerNight","currency":"currency","note":{"en":"per night","it":"a notte"}},
  {"kind":"rows","rows":[
    {"label":{"en":"Stars","it":"Stelle"},"value":"stars","format":"number"},
    {"label":{"en":"Check-in","it":"Arrivo"},"value":"checkIn","format":"date"},
    {"label":{"en":"Check-out","it":"Partenza"},"value":"checkOut","format":"date"},
    {"label":{"en":"Address","it":"Indirizzo"},"value":"address"}]},
  {"kind":"chips","items":"amenities"},
  {"kind":"text","value":"summary"}
]$json$),
('hotel.compact', 1, 'hotel', 'Name, rating and price only: for lists of many hotels', $json$[
  {"kind":"title","text":"{{name}}","subtitle":"{{city}}"},
  {"kind":"rating","value":"rating","max":10,"count":"reviews"},
  {"kind":"price","amount":"pricePerNight","currency":"currency","note":{"en":"per night","it":"a notte"}}
]$json$),
('flight', 1, 'flight', 'Route, carrier, times, duration, stops and fare', $json$[
  {"kind":"title","text":"{{from}} → {{to}}","subtitle":"{{airline}} {{flightNumber}}"},
  {"kind":"price","amount":"price","currency":"currency"},
  {"kind":"rows","rows":[
    {"label":{"en":"Departs","it":"Partenza"},"value":"departAt","format":"datetime"},
    {"label":{"en":"Arrives","it":"Arrivo"},"value":"arriveAt","format":"datetime"},
    {"label":{"en":"Duration","it":"Durata"},"value":"durationMinutes","format":"duration"},
    {"label":{"en":"Stops","it":"Scali"},"value":"stops","format":"number"},
    {"label":{"en":"Cabin","it":"Classe"},"value":"cabin"},
    {"label":{"en":"Baggage","it":"Bagaglio"},"value":"baggage"}]}
]$json$),
('email', 1, 'email', 'A draft email: subject, recipients and the exact text', $json$[
  {"kind":"title","text":"{{subject}}","subtitle":{"en":"Draft email","it":"Bozza email"}},
  {"kind":"rows","rows":[
    {"label":{"en":"To","it":"A"},"value":"to"},
    {"label":{"en":"Cc","it":"Cc"},"value":"cc"},
    {"label":{"en":"From","it":"Da"},"value":"from"}]},
  {"kind":"text","value":"body"}
]$json$),
('stock_quote', 1, 'stock_quote', 'Symbol, price, daily change and a trend line', $json$[
  {"kind":"title","text":"{{symbol}}","subtitle":"{{name}}"},
  {"kind":"price","amount":"price","currency":"currency"},
  {"kind":"change","label":{"en":"Today","it":"Oggi"},"value":"changePercent","format":"percent","good":"up"},
  {"kind":"trend","label":{"en":"Recent trend","it":"Andamento recente"},"points":"history"},
  {"kind":"rows","rows":[
    {"label":{"en":"Change","it":"Variazione"},"value":"change","format":"money","currency":"currency"},
    {"label":{"en":"Exchange","it":"Borsa"},"value":"exchange"},
    {"label":{"en":"As of","it":"Aggiornato"},"value":"asOf","format":"datetime"}]}
]$json$),
('job_offer', 1, 'job_offer', 'Role, company, place, pay range and skills', $json$[
  {"kind":"title","text":"{{title}}","subtitle":"{{company}}"},
  {"kind":"rows","rows":[
    {"label":{"en":"Location","it":"Sede"},"value":"location"},
    {"label":{"en":"Remote","it":"Da remoto"},"value":"remote","format":"bool"},
    {"label":{"en":"Salary from","it":"Stipendio da"},"value":"salaryMin","format":"money","currency":"currency"},
    {"label":{"en":"Salary up to","it":"Stipendio fino a"},"value":"salaryMax","format":"money","currency":"currency"},
    {"label":{"en":"Contract","it":"Contratto"},"value":"employmentType"},
    {"label":{"en":"Posted","it":"Pubblicata"},"value":"postedAt","format":"date"}]},
  {"kind":"chips","items":"skills"},
  {"kind":"text","value":"summary"}
]$json$),
('recipe', 1, 'recipe', 'Photo, times, ingredients and numbered steps', $json$[
  {"kind":"image","src":"image","alt":"{{title}}"},
  {"kind":"title","text":"{{title}}"},
  {"kind":"rows","rows":[
    {"label":{"en":"Serves","it":"Porzioni"},"value":"servings","format":"number"},
    {"label":{"en":"Preparation","it":"Preparazione"},"value":"prepMinutes","format":"duration"},
    {"label":{"en":"Cooking","it":"Cottura"},"value":"cookMinutes","format":"duration"}]},
  {"kind":"chips","items":"tags"},
  {"kind":"list","heading":{"en":"Ingredients","it":"Ingredienti"},"items":"ingredients"},
  {"kind":"list","heading":{"en":"Method","it":"Procedimento"},"items":"steps","ordered":true}
]$json$),
('briefing', 1, 'briefing', 'A daily brief: summary, key numbers with trends, and sections of items', $json$[
  {"kind":"title","text":"{{title}}"},
  {"kind":"rows","rows":[{"label":{"en":"Date","it":"Data"},"value":"date","format":"date"}]},
  {"kind":"text","value":"summary"},
  {"kind":"metrics","items":"metrics"},
  {"kind":"each","items":"sections","blocks":[
    {"kind":"list","heading":"{{heading}}","items":"items","item":{"text":"{{text}}","detail":"{{detail}}","tone":"tone"}}]}
]$json$),
('booking', 1, 'booking', 'A booking: service, customer, status, time and price', $json$[
  {"kind":"title","text":"{{service}}","subtitle":"{{customer}}"},
  {"kind":"callout","tone":{"from":"status","map":{"confirmed":"success","completed":"success","pending":"warning","cancelled":"danger","no_show":"danger"}},
   "value":"status","map":{"confirmed":{"en":"Confirmed","it":"Confermata"},"pending":{"en":"Waiting for confirmation","it":"In attesa di conferma"},
   "cancelled":{"en":"Cancelled","it":"Annullata"},"no_show":{"en":"No-show","it":"Non presentato"},"completed":{"en":"Completed","it":"Completata"}}},
  {"kind":"rows","rows":[
    {"label":{"en":"When","it":"Quando"},"value":"startsAt","format":"datetime"},
    {"label":{"en":"Duration","it":"Durata"},"value":"durationMinutes","format":"duration"},
    {"label":{"en":"With","it":"Con"},"value":"staff"},
    {"label":{"en":"Price","it":"Prezzo"},"value":"price","format":"money","currency":"currency"}]},
  {"kind":"text","heading":{"en":"Notes","it":"Note"},"value":"notes"}
]$json$),
('customer', 1, 'customer', 'A customer: contact, history and value', $json$[
  {"kind":"title","text":"{{name}}","subtitle":"{{email}}"},
  {"kind":"rows","rows":[
    {"label":{"en":"Phone","it":"Telefono"},"value":"phone"},
    {"label":{"en":"Customer since","it":"Cliente dal"},"value":"since","format":"date"},
    {"label":{"en":"Visits","it":"Visite"},"value":"visits","format":"number"},
    {"label":{"en":"Last visit","it":"Ultima visita"},"value":"lastVisitAt","format":"date"},
    {"label":{"en":"Lifetime value","it":"Valore totale"},"value":"lifetimeValue","format":"money","currency":"currency"}]},
  {"kind":"chips","items":"tags"},
  {"kind":"text","heading":{"en":"Notes","it":"Note"},"value":"notes"}
]$json$),
('deal', 1, 'deal', 'A deal: value, stage, probability and the next step', $json$[
  {"kind":"title","text":"{{title}}","subtitle":"{{company}}"},
  {"kind":"price","amount":"value","currency":"currency"},
  {"kind":"rows","rows":[
    {"label":{"en":"Stage","it":"Fase"},"value":"stage"},
    {"label":{"en":"Probability","it":"Probabilità"},"value":"probability","format":"percent"},
    {"label":{"en":"Contact","it":"Contatto"},"value":"contact"},
    {"label":{"en":"Expected close","it":"Chiusura prevista"},"value":"expectedCloseAt","format":"date"}]},
  {"kind":"callout","tone":"info","text":"{{nextStep}}"}
]$json$),
('insight', 1, 'insight', 'What an agent noticed: severity, the number behind it, and the evidence', $json$[
  {"kind":"callout","tone":{"from":"severity","map":{"info":"info","watch":"warning","act":"danger"}},
   "value":"severity","map":{"info":{"en":"For your information","it":"Per tua informazione"},"watch":{"en":"Worth watching","it":"Da tenere d'occhio"},"act":{"en":"Needs action","it":"Richiede un intervento"}}},
  {"kind":"title","text":"{{title}}","subtitle":"{{planet}}"},
  {"kind":"metrics","items":"metric"},
  {"kind":"text","value":"body"},
  {"kind":"text","heading":{"en":"Evidence","it":"Dati"},"value":"evidence"}
]$json$),
('approval', 1, 'approval', 'What an agent wants to do, why, and the exact message it will send', $json$[
  {"kind":"callout","tone":"warning","text":{"en":"Needs your OK","it":"Serve il tuo OK"}},
  {"kind":"title","text":"{{title}}"},
  {"kind":"text","value":"why"},
  {"kind":"rows","rows":[
    {"label":{"en":"To","it":"A"},"value":"recipient"},
    {"label":{"en":"Channel","it":"Canale"},"value":"channel"}]},
  {"kind":"text","heading":{"en":"Exact message","it":"Messaggio esatto"},"value":"message"}
]$json$);
