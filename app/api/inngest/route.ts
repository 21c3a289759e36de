import { serve } from 'inngest/next';
import { inngest } from '@/lib/events';
import { functions } from '@/inngest/functions';

// Inngest Cloud syncs (PUT), inspects (GET) and invokes (POST) the background functions here.
export const { GET, POST, PUT } = serve({ client: inngest, functions: functions.map((fn) => fn.inngestFunction) });
