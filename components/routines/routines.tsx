'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/components/api/client';
import { OrbitArt } from '@/components/ui/art';
import { Button } from '@/components/ui/button';
import { Card, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { useToast } from '@/components/ui/toast';
import { useI18n } from '@/lib/i18n/client';
import { RoutineCard } from './routine-card';
import { RoutineForm } from './routine-form';
import { routinesKey, type AgentOption, type RoutineLimits, type RoutineView } from './types';

const FORM_PREFIX = 'new-routine';

/**
 * Settings → Routines: the workspace's routines as cards and, for owners and admins, the form to add
 * one. Members get the same list without the controls (the page tells them who manages routines).
 */
export function RoutinesView({
  workspaceId,
  userId,
  canManage,
  timeZone,
  agents,
  limits,
  initialRoutines,
}: {
  workspaceId: string;
  userId: string;
  canManage: boolean;
  timeZone: string;
  agents: AgentOption[];
  limits: RoutineLimits;
  initialRoutines: RoutineView[];
}) {
  const { t } = useI18n();
  const toast = useToast();
  const queryClient = useQueryClient();
  const key = routinesKey(workspaceId);
  const routines = useQuery({ queryKey: key, queryFn: () => api<RoutineView[]>(`/api/workspaces/${workspaceId}/routines`), initialData: initialRoutines });

  const focusForm = () => {
    const field = document.getElementById(`${FORM_PREFIX}-agent`) ?? document.getElementById(`${FORM_PREFIX}-name`);
    field?.scrollIntoView({ block: 'center' });
    field?.focus();
  };

  return (
    <div className="flex flex-col gap-6">
      {routines.data.length === 0 ? (
        <EmptyState
          art={<OrbitArt />}
          title={t('routines.emptyTitle')}
          body={canManage ? t('routines.emptyBody') : t('routines.emptyBodyMember')}
          action={
            canManage && agents.length > 0 ? (
              <Button variant="secondary" onClick={focusForm}>
                {t('routines.emptyAction')}
              </Button>
            ) : undefined
          }
        />
      ) : (
        <section aria-labelledby="routines-list" className="flex flex-col gap-3">
          <h2 id="routines-list" className="px-1 text-lg font-semibold">
            {t('routines.listTitle')}
          </h2>
          <ul className="flex flex-col gap-3">
            {routines.data.map((routine) => (
              <li key={routine.id}>
                <RoutineCard workspaceId={workspaceId} routine={routine} canManage={canManage} userId={userId} limits={limits} />
              </li>
            ))}
          </ul>
        </section>
      )}

      {canManage && (
        <Card>
          <CardTitle id="routines-add">{t('routines.add')}</CardTitle>
          <p className="mt-1 mb-4 text-[0.9375rem] text-pretty text-muted">{t('routines.addLead')}</p>
          <RoutineForm
            workspaceId={workspaceId}
            idPrefix={FORM_PREFIX}
            limits={limits}
            timeZone={timeZone}
            agents={agents}
            onSaved={(created) => {
              queryClient.setQueryData<RoutineView[]>(key, (list) => [...(list ?? []).filter((r) => r.id !== created.id), created]);
              toast(t('routines.created', { name: created.name }));
            }}
          />
        </Card>
      )}
    </div>
  );
}
