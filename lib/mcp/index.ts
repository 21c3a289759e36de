export { handleMcpRequest } from './http';
export { toolNames, workspaceMcpServer } from './server';
export { mcpCaller, readTask, startTask, waitForTask } from './tasks';
export type { McpCaller, Task, TaskStatus } from './tasks';
