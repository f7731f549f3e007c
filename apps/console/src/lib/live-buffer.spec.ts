import { LiveBuffer, visibleRange } from './live-buffer';

describe('LiveBuffer', () => {
  it('keeps the newest first, drops repeats of an id and counts them', () => {
    const buffer = new LiveBuffer<{ id: string }>(10);
    expect(buffer.add([{ id: 'a' }, { id: 'b' }])).toBe(2);
    expect(buffer.add([{ id: 'b' }, { id: 'c' }])).toBe(1);
    expect(buffer.items.map((item) => item.id)).toEqual(['c', 'b', 'a']);
    expect(buffer.received).toBe(3);
    expect(buffer.duplicates).toBe(1);
  });

  it('keeps at most its capacity, forgetting the oldest', () => {
    const buffer = new LiveBuffer<{ id: string }>(3);
    buffer.add(['1', '2', '3', '4', '5'].map((id) => ({ id })));
    expect(buffer.items.map((item) => item.id)).toEqual(['5', '4', '3']);
    expect(buffer.received).toBe(5);
    buffer.clear();
    expect(buffer.items).toEqual([]);
  });
});

describe('visibleRange', () => {
  it('draws the rows in view plus the overscan, within the list', () => {
    expect(visibleRange(0, 400, 40, 1000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(4000, 400, 40, 1000, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleRange(39_900, 400, 40, 1000, 5)).toEqual({ start: 992, end: 1000 });
    expect(visibleRange(0, 400, 40, 3, 5)).toEqual({ start: 0, end: 3 });
  });
});
