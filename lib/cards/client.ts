/** What of lib/cards any bundle may import, the browser's too: no server code behind it. */
export { readAttachments } from './card';
export { stateKey, titleOf } from './keys';
