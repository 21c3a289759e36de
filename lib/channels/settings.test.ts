import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '@/lib/config';
import { asService, withUser } from '@/lib/db';
import { newKeyEntry } from '@/lib/secrets';
import { createWorkspace } from '@/lib/workspaces';
import { setupTestDatabase } from '@/test/db';
import { createUser, joinWorkspace } from '@/test/fixtures';
import { channelSettings, saveChannelSettings, smtpCredentials, twilioCredentials } from '.';

setupTestDatabase();

const SID = 'AC' + '0123456789abcdef'.repeat(2);

beforeAll(() => {
  process.env.SECRETS_KEYS = newKeyEntry('k1');
  resetConfigForTests();
});

describe('channel settings', () => {
  it('keep the password and token sealed, show members only whether they are set, and let only managers change them', async () => {
    const owner = await createUser('owner');
    const member = await createUser('member');
    const workspace = await createWorkspace(owner, { name: 'Studio Aurora' });
    await joinWorkspace(owner, workspace.id, member);

    const saved = await saveChannelSettings(owner, workspace.id, {
      email: { host: 'smtp.example.test', port: 465, secure: true, user: 'salon', password: 'smtp-secret-pw', from: 'salon@example.test', replyTo: 'desk@example.test' },
      twilio: { accountSid: SID, authToken: 'twilio-token-0123456789', smsFrom: '+15005550006' },
      dailyCap: 50,
    });
    expect(saved).toEqual({
      email: { host: 'smtp.example.test', port: 465, secure: true, user: 'salon', from: 'salon@example.test', replyTo: 'desk@example.test', passwordSet: true },
      twilio: { accountSid: SID, smsFrom: '+15005550006', whatsappFrom: null },
      dailyCap: 50,
    });
    const [raw] = await asService((tx) => tx.query<Record<string, string>>(`select * from public.workspace_channels where workspace_id = $1`, [workspace.id]));
    expect(JSON.stringify(raw)).not.toMatch(/smtp-secret-pw|twilio-token/);

    expect(await withUser(member, (tx) => channelSettings(tx, workspace.id))).toEqual(saved);
    await expect(withUser(member, (tx) => tx.query(`select smtp_password_sealed from public.workspace_channels`))).rejects.toThrow(/permission denied/);
    await expect(saveChannelSettings(member, workspace.id, { dailyCap: 10 })).rejects.toMatchObject({ key: 'api.managersOnly.channels' });

    expect(await twilioCredentials(workspace.id)).toMatchObject({ accountSid: SID, authToken: 'twilio-token-0123456789', from: '+15005550006', whatsappFrom: null });
    expect(await smtpCredentials(workspace.id)).toMatchObject({ host: 'smtp.example.test', user: 'salon', password: 'smtp-secret-pw', replyTo: 'desk@example.test' });

    // Left out, the token is kept; another account needs its own.
    await saveChannelSettings(owner, workspace.id, { twilio: { accountSid: SID, smsFrom: '+15005550007' } });
    expect(await twilioCredentials(workspace.id)).toMatchObject({ authToken: 'twilio-token-0123456789', from: '+15005550007' });
    await expect(saveChannelSettings(owner, workspace.id, { twilio: { accountSid: 'AC' + 'f'.repeat(32), smsFrom: '+15005550007' } })).rejects.toMatchObject({
      key: 'api.channels.twilioToken',
    });

    await saveChannelSettings(owner, workspace.id, { email: null, twilio: null });
    expect(await twilioCredentials(workspace.id)).toBeNull();
    expect(await smtpCredentials(workspace.id)).toBeNull();
  });
});
