import { agentArtifacts } from '@/lib/artifacts';

export const GET = agentArtifacts.get;
