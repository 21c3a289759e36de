export { isUuid } from './ids';
export {
  ApiError,
  conflict,
  forbidden,
  fromDatabaseError,
  invalidField,
  managersOnly,
  notFound,
  ownerOnly,
  rethrowAsApiError,
  unauthorized,
  validate,
  validationError,
} from './errors';
export type { ApiMessage, ApiMessageKey, ErrorCode, FieldErrors, FieldProblem, ManagersOnly, MessageParams, OwnerOnly } from './errors';
export { errorMessage, isApiMessageKey } from './messages';
export { checkInput, errorResponse, ok, okRaw, parseJson, parseParams, parseQuery, route } from './route';
export type { Envelope, RouteContext } from './route';
export { serialize, serializeSnake } from './serialize';
export type { Wire } from './serialize';
