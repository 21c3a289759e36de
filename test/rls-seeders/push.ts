import type { WorkspaceDataSeeder } from '../rls-fixture';

/** Push subscriptions are a person's devices: member A's and owner B's for the person-scoped checks, owner A's for the write rules. */
export default (async (tx, world, workspace) => {
  const people = workspace.id === world.a.id ? [world.memberA.id, world.ownerA.id] : [world.ownerB.id];
  for (const userId of people) {
    await tx.query(`insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4)`, [
      userId,
      `https://push.example.test/seeded-${userId}`,
      `B${'A'.repeat(86)}`,
      'A'.repeat(22),
    ]);
  }
}) satisfies WorkspaceDataSeeder;
