import { describe, expect, expectTypeOf, it } from 'vitest';
import { serialize, serializeSnake, type SnakeWire, type Wire } from './serialize';

describe('serialize', () => {
  it('turns rows, nested rows and arrays of rows into camelCase with ISO dates', () => {
    const at = new Date('2026-12-01T08:30:00Z');
    expect(serialize({ workspace_id: 'w1', created_at: at, last_visit: { visited_at: at, staff_name: 'Ada' }, rows: [{ action_type: 'x' }] })).toEqual({
      workspaceId: 'w1',
      createdAt: '2026-12-01T08:30:00.000Z',
      lastVisit: { visitedAt: '2026-12-01T08:30:00.000Z', staffName: 'Ada' },
      rows: [{ actionType: 'x' }],
    });
  });

  it('hands card data back as it was written, at any depth', () => {
    const payload = {
      cards: [{ id: 'c1', data: { first_name: 'Giulia', visits: [{ visited_on: '2026-11-30' }] }, actions: [{ id: 'book', data: { booking_id: 7 } }] }],
      card_event: { event_id: 'e1', data: { booking_id: 7 }, cardData: { first_name: 'Giulia' } },
    };
    expect(serialize({ message_id: 'm1', payload })).toEqual({
      messageId: 'm1',
      payload: {
        cards: [{ id: 'c1', data: { first_name: 'Giulia', visits: [{ visited_on: '2026-11-30' }] }, actions: [{ id: 'book', data: { booking_id: 7 } }] }],
        cardEvent: { eventId: 'e1', data: { booking_id: 7 }, cardData: { first_name: 'Giulia' } },
      },
    });
  });

  it('keeps snake_case for the topic-queue contract', () => {
    expect(serializeSnake({ topic_id: 't1', created_at: new Date(0) })).toEqual({ topic_id: 't1', created_at: '1970-01-01T00:00:00.000Z' });
  });
});

describe('Wire<T>, the type of what serialize sends', () => {
  interface Row {
    id: string;
    workspace_id: string;
    created_at: Date;
    decided_at: Date | null;
    note?: string;
    retried_at: Date | undefined;
    no_show_rate_30d: number;
    last_run: { due_at: Date; agent: { agent_name: string } } | null;
    runs: { ran_at: Date; error_code: string | null }[];
    payload: { side_threads?: string[]; [key: string]: unknown };
    data: { booking_id: number; sent_at: string };
    card_data: { first_name: string };
    render: () => string;
    status: 'open' | 'resolved';
  }

  type Expected = {
    id: string;
    workspaceId: string;
    createdAt: string;
    decidedAt: string | null;
    note?: string;
    retriedAt?: string;
    noShowRate30d: number;
    lastRun: { dueAt: string; agent: { agentName: string } } | null;
    runs: { ranAt: string; errorCode: string | null }[];
    payload: { sideThreads?: string[]; [key: string]: unknown };
    data: { booking_id: number; sent_at: string };
    cardData: { first_name: string };
    status: 'open' | 'resolved';
  };

  it('says what serialize does to keys and values, at every depth', () => {
    expectTypeOf<Wire<Row>>().toEqualTypeOf<Expected>();
    expectTypeOf(serialize<Row>).returns.toEqualTypeOf<Expected>();
    expectTypeOf<Wire<Date>>().toEqualTypeOf<string>();
    expectTypeOf<Wire<{ list: Date[] }[]>>().toEqualTypeOf<{ list: string[] }[]>();
    expectTypeOf<Wire<{ kind: 'a'; at_: Date } | { kind: 'b'; a__b: number }>>().toEqualTypeOf<{ kind: 'a'; at_: string } | { kind: 'b'; a_B: number }>();
    expectTypeOf<Wire<{ snake_Upper: 1 }>>().toEqualTypeOf<{ snake_Upper: 1 }>();
    expectTypeOf<Wire<unknown>>().toEqualTypeOf<unknown>();
    expectTypeOf<Wire<{ mentions: unknown[]; gaps: (Date | undefined)[] }>>().toEqualTypeOf<{ mentions: unknown[]; gaps: (string | null)[] }>();
    expectTypeOf<SnakeWire<{ topic_id: string; created_at: Date; data: { a_b: 1 } }>>().toEqualTypeOf<{ topic_id: string; created_at: string; data: { a_b: 1 } }>();
  });

  it('matches what a client receives for a value of the type', () => {
    const at = new Date('2026-12-01T08:30:00Z');
    const row: Row = {
      id: 'r1',
      workspace_id: 'w1',
      created_at: at,
      decided_at: null,
      retried_at: undefined,
      no_show_rate_30d: 0.12,
      last_run: { due_at: at, agent: { agent_name: 'Nova' } },
      runs: [{ ran_at: at, error_code: null }],
      payload: { side_threads: ['t1'], card_event: { event_id: 'e1' } },
      data: { booking_id: 7, sent_at: 'now' },
      card_data: { first_name: 'Giulia' },
      render: () => 'not sent',
      status: 'open',
    };
    // Typed as Wire<Row>: a key the type lacks, or one it has that is missing here, does not compile.
    const expected: Wire<Row> = {
      id: 'r1',
      workspaceId: 'w1',
      createdAt: '2026-12-01T08:30:00.000Z',
      decidedAt: null,
      noShowRate30d: 0.12,
      lastRun: { dueAt: '2026-12-01T08:30:00.000Z', agent: { agentName: 'Nova' } },
      runs: [{ ranAt: '2026-12-01T08:30:00.000Z', errorCode: null }],
      payload: { sideThreads: ['t1'], cardEvent: { eventId: 'e1' } },
      data: { booking_id: 7, sent_at: 'now' },
      cardData: { first_name: 'Giulia' },
      status: 'open',
    };
    const received: unknown = JSON.parse(JSON.stringify(serialize(row)));
    expect(received).toEqual(expected);
    expect(Object.keys(received as object).sort()).toEqual(Object.keys(expected).sort());
  });
});
