import { describe, expect, it } from 'vitest';
import { getDemoCredentials, signIn } from '@/lib/auth';
import { listWorkspaces } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { seedDemo } from '.';

setupTestDatabase();

describe('demo seed', () => {
  it('creates the demo owner with a personal workspace and Studio Aurora, once', async () => {
    const first = await seedDemo();
    expect(first).not.toBeNull();
    expect(await seedDemo()).toBeNull();
    expect(await getDemoCredentials()).toEqual({ email: first!.email, password: first!.password });
    const session = await signIn({ email: first!.email, password: first!.password }, '127.0.0.1');
    const workspaces = await listWorkspaces(session.user);
    expect(workspaces.map((w) => [w.name, w.isPersonal, w.role])).toEqual([
      ['Personal', true, 'owner'],
      ['Studio Aurora', false, 'owner'],
    ]);
    expect(workspaces[1]).toMatchObject({ timeZone: 'Europe/Rome', sector: 'hair_salon', locale: 'it' });
  });
});
