/** What of lib/planets any bundle may import, the browser's too: no server code behind it. */
export { money } from './money';
export { isPlanet, LEAD_SOURCES } from './types';
