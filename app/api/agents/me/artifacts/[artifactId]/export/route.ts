import { agentArtifacts } from '@/lib/artifacts/http';

// ?version=n&format=file|pdf
export const GET = agentArtifacts.export;
