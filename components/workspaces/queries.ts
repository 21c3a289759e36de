import { api } from '@/components/api/client';
import type { InvitationView, MemberView } from './types';

export const membersKey = (workspaceId: string) => ['workspaces', workspaceId, 'members'] as const;
export const invitationsKey = (workspaceId: string) => ['workspaces', workspaceId, 'invitations'] as const;

export const fetchMembers = (workspaceId: string) => api<MemberView[]>(`/api/workspaces/${workspaceId}/members`);
export const fetchInvitations = (workspaceId: string) => api<InvitationView[]>(`/api/workspaces/${workspaceId}/invitations`);
