import { describe, expect, it } from 'vitest';
import { serialize, serializeSnake } from './serialize';

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
