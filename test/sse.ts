/** An SSE response read in the background: `events` fills as they arrive, `ended` turns true when the server closes it. */
export interface SseReading {
  events: { event: string; data: Record<string, unknown> }[];
  ended: boolean;
}

export function readSse(response: Response): SseReading {
  const reading: SseReading = { events: [], ended: false };
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = frame.match(/^event: (.*)$/m)?.[1];
        const data = frame.match(/^data: (.*)$/m)?.[1];
        if (event && data) reading.events.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
    reading.ended = true;
  })();
  return reading;
}
