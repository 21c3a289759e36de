import { handleMcpRequest } from '@/lib/mcp';

/** MCP (Streamable HTTP, stateless): lib/mcp. GET and DELETE are answered 405, as a stateless server does. */
export const POST = handleMcpRequest;
export const GET = handleMcpRequest;
export const DELETE = handleMcpRequest;
