import type { Locale, MessageKey, Translate } from '@/lib/i18n';
import type { RunDetailView } from './types';

/**
 * A run as its owner reads it (Settings → Usage): what ran and why it stopped, each tool call and each
 * failure in a sentence, never the runtime's own words (JSON, schemas, exception text). Pure: no React.
 */

type ToolCall = RunDetailView['toolCalls'][number];

/** The start of what ran, by the trigger the runtime recorded. */
const TRIGGER: Record<string, MessageKey> = {
  'chat:dm': 'usage.trigger.dm',
  'chat:channel': 'usage.trigger.channel',
  'chat:thread': 'usage.trigger.thread',
  'chat:delegation': 'usage.trigger.delegation',
  'api:topic-request': 'usage.trigger.topicRequest',
  'api:topic-summary': 'usage.trigger.topicSummary',
  'cron:analyze_planet_data': 'usage.trigger.analysis',
};

/** The app's own tools, each as what it does; any other (an MCP server's, an agent's own) by its name. */
const TOOL: Record<string, MessageKey> = {
  planet_metrics: 'usage.tool.planet_metrics',
  sector_benchmark: 'usage.tool.sector_benchmark',
  action_candidates: 'usage.tool.action_candidates',
  finish_analysis: 'usage.tool.finish_analysis',
  finish: 'usage.tool.finish',
  reply: 'usage.tool.reply',
  publish_result: 'usage.tool.publish_result',
  report_outcome: 'usage.tool.report_outcome',
  publish_artifact: 'usage.tool.publish_artifact',
  edit_artifact: 'usage.tool.edit_artifact',
  send_booking_reminder: 'usage.tool.send_booking_reminder',
  offer_freed_slot: 'usage.tool.offer_freed_slot',
  win_back_customer: 'usage.tool.win_back_customer',
  follow_up_stale_deal: 'usage.tool.follow_up_stale_deal',
  reply_to_customer: 'usage.tool.reply_to_customer',
  gmail_draft: 'usage.tool.gmail_draft',
  gmail_send: 'usage.tool.gmail_send',
  calendar_busy: 'usage.tool.calendar_busy',
  calendar_create_event: 'usage.tool.calendar_create_event',
  github_list_issues: 'usage.tool.github_list_issues',
  github_create_issue: 'usage.tool.github_create_issue',
  github_comment: 'usage.tool.github_comment',
};

const BACKEND_ERRORS = new Set(['auth', 'rate_limit', 'overloaded', 'bad_request', 'unavailable', 'network', 'no_backend', 'internal']);

export function whatRan(run: Pick<RunDetailView, 'trigger' | 'agentName'>, agentName: string, t: Translate): string {
  return t(TRIGGER[run.trigger] ?? 'usage.trigger.other', { agent: agentName });
}

/** How the run ended, as a sentence; a failure says why in words, by its kind. */
export function howItEnded(run: Pick<RunDetailView, 'stopReason' | 'errorKind'>, t: Translate): string {
  if (run.stopReason !== 'error') return t(`usage.end.${run.stopReason}`);
  const kind = run.errorKind && BACKEND_ERRORS.has(run.errorKind) ? (run.errorKind as 'internal') : 'internal';
  return t('usage.end.error', { reason: t(`usage.error.${kind}`) });
}

/** "Read the planet’s figures — done in 26 ms", "Wrote its answer in the conversation — did not work: …". */
export function toolCallWords(call: ToolCall, locale: Locale, t: Translate): { action: string; result: string; ok: boolean } {
  const action = TOOL[call.name] ? t(TOOL[call.name]!) : t('usage.tool.other', { name: call.name });
  if (call.note === 'proposed') return { action, result: t('usage.toolHeld'), ok: true };
  if (call.ok) return { action, result: t('usage.toolDone', { duration: duration(call.ms, locale) }), ok: true };
  const why =
    call.note === 'unknown_tool' || call.note === 'denied' || call.note === 'repeated_failure'
      ? t(`usage.toolWhy.${call.note}`)
      : /^Invalid input\b/.test(call.error ?? '')
        ? t('usage.toolWhy.invalid')
        : t('usage.toolWhy.other');
  return { action, result: t('usage.toolFailed', { reason: why }), ok: false };
}

/** "26 ms", "1.4 s", "2 min" in the reader's language. */
export function duration(ms: number, locale: Locale): string {
  const [value, unit] = ms < 1000 ? [Math.round(ms), 'millisecond'] : ms < 60_000 ? [Math.round(ms / 100) / 10, 'second'] : [Math.round(ms / 6000) / 10, 'minute'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}

/** An object key or a list of strings: the start of JSON, which a person does not read. */
const RAW_DATA = /[{[]\s*"[^"\n]*"\s*[:,\]]/;

/**
 * What the agent concluded, without the lines that carry raw data (the offline model restates what it
 * read as JSON, a failure quotes a schema): those are counted instead of shown.
 */
export function readableOutcome(text: string): { text: string; omitted: number } {
  const lines = text.split('\n');
  const kept = lines.filter((line) => !RAW_DATA.test(line));
  return { text: kept.join('\n').trim(), omitted: lines.length - kept.length };
}
