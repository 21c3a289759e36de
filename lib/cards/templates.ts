import { z } from 'zod';
import { notFound, validate } from '@/lib/api';
import { asService, type Tx } from '@/lib/db';
import { templateSchema, type Template } from './layout';

/**
 * The curated template library (private.card_templates): platform-wide, versioned. New cards use a
 * name's latest version; retiring a name makes it unknown to new cards. Only server code writes it.
 */

export interface TemplateInfo {
  name: string;
  version: number;
  resultType: string;
  description: string;
}

export interface ResolvedTemplate extends TemplateInfo {
  layout: Template;
}

interface TemplateRow {
  name: string;
  version: number;
  result_type: string;
  description: string;
  layout: unknown;
  retired_at: Date | null;
}

/** The latest version of `name`, if the name exists, is not retired and its layout is valid. */
export async function findTemplate(tx: Tx, name: string): Promise<ResolvedTemplate | undefined> {
  const [row] = await tx.query<TemplateRow>(
    `select name, version, result_type, description, layout, retired_at from private.card_templates
      where name = $1 order by version desc limit 1`,
    [name],
  );
  if (!row || row.retired_at) return undefined;
  const layout = templateSchema.safeParse(row.layout);
  if (!layout.success) return undefined;
  return { name: row.name, version: row.version, resultType: row.result_type, description: row.description, layout: layout.data };
}

/** The library as agents and people browse it: each live name at its latest version. */
export async function listTemplates(): Promise<TemplateInfo[]> {
  const rows = await asService((tx) =>
    tx.query<TemplateRow>(
      `select distinct on (name) name, version, result_type, description, layout, retired_at
         from private.card_templates order by name, version desc`,
    ),
  );
  return rows
    .filter((r) => !r.retired_at)
    .map((r) => ({ name: r.name, version: r.version, resultType: r.result_type, description: r.description }))
    .sort((a, b) => a.resultType.localeCompare(b.resultType) || a.name.localeCompare(b.name));
}

export const publishTemplateSchema = z.object({
  name: z.string().regex(/^[a-z][a-z0-9_.-]{0,62}$/),
  resultType: z.string().regex(/^[a-z][a-z0-9_]{0,39}$/),
  description: z.string().max(200).default(''),
  layout: templateSchema,
});

/** Adds the next version of a template (a new name starts at 1). Curators only: server code, no route. */
export async function publishTemplate(input: z.input<typeof publishTemplateSchema>): Promise<TemplateInfo> {
  const { name, resultType, description, layout } = validate(publishTemplateSchema, input);
  const [row] = await asService((tx) =>
    tx.query<TemplateRow>(
      `insert into private.card_templates (name, version, result_type, description, layout)
       select $1, coalesce(max(version), 0) + 1, $2, $3, $4::text::jsonb from private.card_templates where name = $1
       returning name, version, result_type, description`,
      [name, resultType, description, JSON.stringify(layout)],
    ),
  );
  return { name: row!.name, version: row!.version, resultType: row!.result_type, description: row!.description };
}

/** Deletes a template for new cards (its versions stay, for the record). */
export async function retireTemplate(name: string): Promise<void> {
  const rows = await asService((tx) =>
    tx.query(`update private.card_templates set retired_at = coalesce(retired_at, now()) where name = $1 returning 1`, [name]),
  );
  if (rows.length === 0) throw notFound('template', { name });
}

