/** What of lib/agent any bundle may import, the browser's too: no server code behind it. */
export { BACKENDS } from './types';
