export { isUuid } from './ids';
export { ApiError, conflict, forbidden, fromDatabaseError, invalidField, managersOnly, notFound, ownerOnly, rethrowAsApiError, unauthorized, validationError } from './errors';
export type { ErrorCode } from './errors';
export { checkInput, errorResponse, ok, okRaw, parseJson, parseParams, parseQuery, route } from './route';
export type { Envelope, RouteContext } from './route';
export { serialize, serializeSnake } from './serialize';
export type { Wire } from './serialize';
