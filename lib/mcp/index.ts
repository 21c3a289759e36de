export { handleMcpRequest } from './http';
