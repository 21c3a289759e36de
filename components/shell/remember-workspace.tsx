'use client';

import { useEffect } from 'react';
import { WORKSPACE_COOKIE } from './workspace-cookie';

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * Remembers the workspace being viewed so `/` returns to it. Written from the browser: it is a
 * preference, not a credential, and setting it from a server action would re-render the page.
 */
export function RememberWorkspace({ id }: { id: string }) {
  useEffect(() => {
    document.cookie = `${WORKSPACE_COOKIE}=${encodeURIComponent(id)}; path=/; max-age=${ONE_YEAR}; samesite=lax`;
  }, [id]);
  return null;
}
