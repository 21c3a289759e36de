import { personArtifacts } from '@/lib/artifacts';

export const GET = personArtifacts.getVersion;
