'use client';

import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useRef, useState, type FormEvent } from 'react';
import { errorText, fieldErrorsOf } from '@/components/api/client';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { compactErrors, focusFirstError, type FieldErrors } from '@/components/ui/form';
import { useI18n } from '@/lib/i18n/client';
import { topicApi, type TopicWire } from './client';

const MODELS = ['claude-opus-4-7', 'claude-sonnet-4-6', 'claude-haiku-4-5-20251001'];

/** Creates a topic, or edits one (then the summary is editable too). Goes to the topic when saved. */
export function TopicForm({ workspaceId, topic }: { workspaceId: string; topic?: TopicWire }) {
  const { t } = useI18n();
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState({
    name: topic?.name ?? '',
    system_prompt: topic?.system_prompt ?? '',
    model: topic?.model ?? '',
    summary: topic?.summary ?? '',
  });
  const [localErrors, setLocalErrors] = useState<FieldErrors>({});

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      topic
        ? topicApi<TopicWire>(workspaceId, `/api/topics/${topic.id}`, { method: 'PUT', body })
        : topicApi<TopicWire>(workspaceId, '/api/topics', { body }),
    onSuccess: (saved) => {
      router.push(`/w/${workspaceId}/topics/${saved.id}`);
      router.refresh();
    },
    onError: (error) => focusFirstError(formRef.current, fieldErrorsOf(error)),
  });
  const errors: FieldErrors = { ...fieldErrorsOf(save.error), ...localErrors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const found = compactErrors({
      name: values.name.trim() ? undefined : [t('topics.nameRequired')],
      model: !values.model.trim() || values.model.trim().startsWith('claude-') ? undefined : [t('topics.modelInvalid')],
    });
    setLocalErrors(found);
    if (Object.keys(found).length) return focusFirstError(formRef.current, found);
    save.mutate({
      name: values.name.trim(),
      system_prompt: values.system_prompt,
      model: values.model.trim() || null,
      ...(topic ? { summary: values.summary } : {}),
    });
  }

  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setLocalErrors({});
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-4">
      {save.isError && !Object.keys(fieldErrorsOf(save.error)).length && <Alert tone="error">{errorText(save.error, t)}</Alert>}
      <TextField id="name" label={t('topics.name')} hint={t('topics.nameHint')} value={values.name} onChange={set('name')} errors={errors.name} autoComplete="off" maxLength={100} />
      <TextAreaField id="system_prompt" label={t('topics.systemPrompt')} hint={t('topics.systemPromptHint')} value={values.system_prompt} onChange={set('system_prompt')} errors={errors.system_prompt} rows={6} />
      <TextField id="model" label={t('topics.model')} hint={t('topics.modelHint')} value={values.model} onChange={set('model')} errors={errors.model} list="claude-models" autoComplete="off" spellCheck={false} />
      <datalist id="claude-models">
        {MODELS.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      {topic && <TextAreaField id="summary" label={t('topics.summary')} hint={t('topics.summaryHint')} value={values.summary} onChange={set('summary')} errors={errors.summary} rows={5} />}
      <Button type="submit" pending={save.isPending} pendingLabel={topic ? t('common.saving') : t('topics.creating')} className="self-start">
        {topic ? t('common.save') : t('topics.createTopic')}
      </Button>
    </form>
  );
}
