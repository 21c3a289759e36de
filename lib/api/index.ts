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
export type { ApiMessageKey, ErrorCode, FieldErrors, ManagersOnly, OwnerOnly } from './errors';
export { errorMessage } from './messages';
export { checkInput, errorResponse, ok, okRaw, parseJson, parseParams, parseQuery, route } from './route';
export type { Envelope, RouteContext } from './route';
export { serialize, serializeSnake } from './serialize';
export type { Wire } from './serialize';
