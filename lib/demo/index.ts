import { DEMO_EMAIL, hashPassword, newToken } from '@/lib/auth';
import { seedChatDemo } from '@/lib/chat';
import { asService, type Tx } from '@/lib/db';
import { seedHomeDemo } from '@/lib/home';
import { seedPlanetsDemo } from '@/lib/planets';
import { seedSalesDemo } from '@/lib/sales';

export const DEMO_WORKSPACE_NAME = 'Studio Aurora';

export interface DemoContext {
  ownerId: string;
  workspaceId: string;
  /** The one clock every seeder anchors its data on (the caller's, so a test's fake clock is obeyed). */
  now: Date;
}

/**
 * Each capability that owns demo data (bookings, customers, conversations…) adds its seeder here;
 * each runs once, in the same transaction that creates the demo workspace.
 */
const demoSeeders: Array<(tx: Tx, demo: DemoContext) => Promise<void>> = [seedPlanetsDemo, seedSalesDemo, seedHomeDemo, seedChatDemo];

/**
 * Seeds the demo owner with a personal workspace and the team workspace "Studio Aurora" (a hair
 * salon), once per database. Returns the login, or null when the demo already existed.
 */
export async function seedDemo(now = new Date()): Promise<{ email: string; password: string; workspaceId: string } | null> {
  const password = newToken(9);
  const passwordHash = await hashPassword(password);
  return asService(async (tx) => {
    const claimed = await tx.query(
      `insert into private.instance_settings (key, value) values ('demo_password', $1) on conflict (key) do nothing returning 1`,
      [password],
    );
    if (!claimed.length) return null;
    const [owner] = await tx.query<{ id: string }>(
      `insert into auth.users (email, encrypted_password, raw_user_meta_data, email_confirmed_at)
       values ($1, $2, $3::jsonb, now()) returning id`,
      [DEMO_EMAIL, passwordHash, JSON.stringify({ display_name: 'Giulia Rossi', locale: 'it', time_zone: 'Europe/Rome' })],
    );
    const [workspace] = await tx.query<{ id: string }>(
      `insert into public.workspaces (name, owner_id, time_zone, locale, sector, plan)
       values ($1, $2, 'Europe/Rome', 'it', 'hair_salon', 'pro') returning id`,
      [DEMO_WORKSPACE_NAME, owner!.id],
    );
    const demo = { ownerId: owner!.id, workspaceId: workspace!.id, now };
    for (const seed of demoSeeders) await seed(tx, demo);
    return { email: DEMO_EMAIL, password, workspaceId: workspace!.id };
  });
}
