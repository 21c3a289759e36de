import { z } from 'zod';
import { ok, parseJson, parseParams, route } from '@/lib/api';
import { requireUser } from '@/lib/auth';
import { customerChangeSchema, getCustomer, updateCustomer } from '@/lib/customers';

type Params = { workspaceId: string; customerId: string };
const paramsSchema = z.object({ workspaceId: z.uuid(), customerId: z.uuid() });

/** One customer: visits, spend, consent, notes and the messages sent to them; any member. */
export const GET = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, customerId } = parseParams(params, paramsSchema);
  return ok(await getCustomer(user, workspaceId, customerId));
});

/** `{consentMessages?, consentMarketing?, notes?}`: what the customer said; any member. */
export const PATCH = route<Params>(async ({ req, params }) => {
  const user = await requireUser(req);
  const { workspaceId, customerId } = parseParams(params, paramsSchema);
  const change = await parseJson(req, customerChangeSchema);
  return ok(await updateCustomer(user, workspaceId, customerId, change));
});
