/** The most recently opened workspace; `/` sends a signed-in visitor back to it. */
export const WORKSPACE_COOKIE = 'mv_ws';
