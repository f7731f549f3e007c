import { SseParser } from './sse.ts';

describe('SseParser', () => {
  it('parses messages with id, event and data, skipping comments and retry', () => {
    const parser = new SseParser();
    const text = 'retry: 2000\n: connected\n\nid: evt_1\nevent: database.query\ndata: {"id":"evt_1"}\n\n: heartbeat\n\n';
    expect(parser.push(text)).toEqual([{ id: 'evt_1', event: 'database.query', data: '{"id":"evt_1"}' }]);
  });

  it('joins messages split across chunks at any byte, including between \\r and \\n', () => {
    const text = 'id: evt_1\r\nevent: a\r\ndata: one\r\n\r\nid: evt_2\r\ndata: two\r\ndata: lines\r\n\r\n';
    for (let size = 1; size <= text.length; size++) {
      const parser = new SseParser();
      const messages = [];
      for (let i = 0; i < text.length; i += size) messages.push(...parser.push(text.slice(i, i + size)));
      expect(messages).toEqual([
        { id: 'evt_1', event: 'a', data: 'one' },
        { id: 'evt_2', event: 'message', data: 'two\nlines' },
      ]);
    }
  });

  it('keeps the last id for later messages without one, and drops a message without data', () => {
    const parser = new SseParser();
    expect(parser.push('id: evt_5\nevent: x\n\nevent: error\ndata: {"code":"slow_consumer"}\n\n')).toEqual([
      { id: 'evt_5', event: 'error', data: '{"code":"slow_consumer"}' },
    ]);
  });

  it('holds back an incomplete message', () => {
    const parser = new SseParser();
    expect(parser.push('id: evt_1\ndata: {"partial"')).toEqual([]);
    expect(parser.push(':true}\n\n')).toEqual([{ id: 'evt_1', event: 'message', data: '{"partial":true}' }]);
  });
});
