'use client';

import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n/client';
import type { HomePrefs } from './types';

// The panel's code is fetched when it is first opened: it is not part of the Home's first load. React's
// own lazy, not next/dynamic: the panel never renders on the server (it opens on a tap), and
// next/dynamic's loader would add about 3 KB to the first load for nothing.
const CustomizePanel = lazy(() => import('./customize-panel'));

/** "Customize" in the Home's header: opens the layout panel. */
export function CustomizeHome({ workspaceId, prefs }: { workspaceId: string; prefs: HomePrefs }) {
  const { t } = useI18n();
  const panelId = useId();
  const [open, setOpen] = useState(false);
  // `contents`: the button sits in the header's row and the panel wraps onto a full-width line below it.
  return (
    <div className="contents">
      <Button variant="ghost" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen(!open)}>
        {t('home.customize')}
      </Button>
      {open && (
        <Suspense>
          <CustomizePanel id={panelId} workspaceId={workspaceId} prefs={prefs} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
