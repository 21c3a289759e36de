/** What of lib/artifacts any bundle may import, the browser's too: no server code behind it. */
export { ARTIFACT_KINDS } from './schemas';
export { parseCsv } from './csv';
export { splitLines } from './diff';
export { HTML_SANDBOX, sandboxedSrcdoc } from './html';
