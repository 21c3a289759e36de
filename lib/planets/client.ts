/** What of lib/planets any bundle may import, the browser's too: no server code behind it. */
export { isPlanet } from './types';
