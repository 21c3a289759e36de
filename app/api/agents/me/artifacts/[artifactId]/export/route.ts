import { agentArtifacts } from '@/lib/artifacts';

// ?version=n&format=file|pdf
export const GET = agentArtifacts.export;
