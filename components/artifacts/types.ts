import type { Wire } from '@/lib/api';
import type { ArtifactComment, ArtifactDetail, ArtifactVersion, ArtifactVersionMeta, diffVersions } from '@/lib/artifacts';

/** The artifact API's JSON: lib/artifacts' types as the serializer sends them. */
export type ArtifactDetailView = Wire<ArtifactDetail>;
export type ArtifactVersionView = Wire<ArtifactVersion>;
export type ArtifactVersionMetaView = Wire<ArtifactVersionMeta>;
export type ArtifactCommentView = Wire<ArtifactComment>;
export type DiffResult = Wire<Awaited<ReturnType<typeof diffVersions>>>;
