import { SseParser } from './sse';

describe('SseParser', () => {
  it('parses messages split anywhere across chunks, with ids, types and multi-line data', () => {
    const parser = new SseParser();
    expect(parser.feed('retry: 2000\n\nid: ev_1\nevent: database.query\nda')).toEqual([]);
    expect(parser.feed('ta: {"a":1}\n\n: heartbeat\n\nid: ev_2\r\ndata: line one\r\ndata: line two\r')).toEqual([{ id: 'ev_1', event: 'database.query', data: '{"a":1}' }]);
    expect(parser.feed('\n\r\n')).toEqual([{ id: 'ev_2', event: 'message', data: 'line one\nline two' }]);
    expect(parser.retry).toBe(2000);
    expect(parser.lastEventId).toBe('ev_2');
  });

  it('ignores comments and messages without data, and keeps the last id for resuming', () => {
    const parser = new SseParser();
    expect(parser.feed(': heartbeat\n\nid: ev_9\n\ndata:x\n\n')).toEqual([{ event: 'message', data: 'x' }]);
    expect(parser.lastEventId).toBe('ev_9');
  });
});
