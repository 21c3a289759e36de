import { config } from '@/lib/config';

type Level = 'debug' | 'info' | 'warn' | 'error';
const order: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** Structured JSON logs, one line per event. `fields` carries the request id and whatever explains the event. */
export function log(level: Level, message: string, fields: Record<string, unknown> = {}) {
  if (order[level] < order[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }, errorReplacer);
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(`${line}\n`);
}

function errorReplacer(_key: string, value: unknown) {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}
