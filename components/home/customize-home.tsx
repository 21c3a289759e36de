'use client';

import dynamic from 'next/dynamic';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { useI18n } from '@/lib/i18n/client';
import type { HomePrefs } from './types';

// The panel's code is fetched when it is first opened: it is not part of the Home's first load.
const CustomizePanel = dynamic(() => import('./customize-panel'), { ssr: false });

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
      {open && <CustomizePanel id={panelId} workspaceId={workspaceId} prefs={prefs} onClose={() => setOpen(false)} />}
    </div>
  );
}
