import { config } from '@/lib/config';

/** Where MCP clients connect: shown to admins next to the API keys and on the public API page. */
export const mcpAddress = () => `${config().APP_URL}/api/mcp`;
