import { personArtifacts } from '@/lib/artifacts/http';

export const GET = personArtifacts.get;
