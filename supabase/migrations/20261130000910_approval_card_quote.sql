-- Approval cards, version 2: the exact message as a quotation under a caption naming its channel
-- and recipient (the `quote` block), so the Home's "Needs your OK" and approvals in conversations
-- are one card. The "Needs your OK" callout of version 1 is gone: on the Home the section says it,
-- and in a conversation the deadline and the Approve / Ignore buttons do. Cards stamped with
-- version 1 keep their blocks (stamping is final); new cards use version 2.
insert into private.card_templates (name, version, result_type, description, layout) values
('approval', 2, 'approval', 'What an agent wants to do, why, and the exact message it will send, to whom and how', $json$[
  {"kind":"title","text":"{{title}}"},
  {"kind":"text","value":"why"},
  {"kind":"quote","caption":{"en":"{{channel}} to {{recipient}}","it":"{{channel}} a {{recipient}}"},"value":"message"}
]$json$);
