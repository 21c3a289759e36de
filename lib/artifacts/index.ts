export {
  addComment,
  diffVersions,
  editArtifact,
  getArtifact,
  getVersion,
  listComments,
  listConversationArtifacts,
  listVersions,
  listWorkspaceArtifacts,
  publishArtifact,
  restoreVersion,
} from './artifacts';
export type { Artifact, ArtifactComment, ArtifactDetail, ArtifactVersion, ArtifactVersionMeta, Author, CommentPlacement } from './artifacts';
export type { DiffLine } from './diff';
export { exportArtifact, fileResponse } from './export';
export type { ExportedFile } from './export';
export { agentArtifacts, personArtifacts } from './http';
export {
  ARTIFACT_KINDS,
  agentPublishArtifactSchema,
  commentSchema,
  diffQuerySchema,
  editArtifactSchema,
  exportQuerySchema,
  publishArtifactSchema,
  restoreSchema,
  versionQuerySchema,
} from './schemas';
export type { ArtifactKind, EditArtifactInput, PublishArtifactInput } from './schemas';
export { publishArtifactTool } from './tools';
