// The card system. Client components import its values from ./client (no server code behind it), its types from here.
export { clickAction, clickSchema, expireApprovals, outcomeSchema, reportOutcome } from './actions';
export type { ClickInput, ClickResult } from './actions';
export { listCardMessages, publishResults, publishResultsSchema } from './results';
export type { CardMessage, PublishResultsInput } from './results';
export { APPROVAL_TTL_MS, resultInputSchema, stampResults } from './stamp';
export type { ResultInput } from './stamp';
export { listTemplates, publishTemplate, retireTemplate } from './templates';
export { publishResultTool, reportOutcomeTool } from './tools';
export type { TemplateInfo } from './templates';
export { ACTION_STATUSES, APPROVAL_VERBS, defaultActions, readAttachments } from './card';
export type { ActionState, ActionStatus, ArtifactChip, Card, CardAction, CardEvent } from './card';
export type { Block, Label, StampedValue, Tone } from './layout';
export { RESULT_TYPES, resultSchemas } from './types';
export type { ResultType } from './types';
