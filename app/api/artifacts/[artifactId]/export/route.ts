import { personArtifacts } from '@/lib/artifacts/http';

// ?version=n&format=file|pdf
export const GET = personArtifacts.export;
