'use client';

import { useState } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Copies a message that did not leave (no provider connected), for the owner to send by hand. Its words
 * come from the page (`labels`), which also renders it where no i18n provider is (Done for you).
 */
export function CopyMessage({ text, name, labels }: { text: string; name: string; labels: { copy: string; copied: string } }) {
  const [copied, setCopied] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      // Clipboard access can be refused; the text stays on the page to select.
    }
  }

  return (
    <Button variant="secondary" onClick={copy} aria-label={`${labels.copy}: ${name}`}>
      <span aria-live="polite">{copied ? labels.copied : labels.copy}</span>
    </Button>
  );
}
