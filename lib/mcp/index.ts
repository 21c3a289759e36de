export { mcpAddress } from './address';
export { handleMcpRequest } from './http';
