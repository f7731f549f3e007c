import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSProtocolError } from 'kafkajs';
import { producerStateLost } from './kafka-bus';

// A producer the broker refuses for its sequence numbers is replaced by the bus (KafkaBus.publish);
// any other failure keeps it. After a connection cut in the middle of a produce request the
// broker answered OUT_OF_ORDER_SEQUENCE_NUMBER to every later send of the same kafkajs producer,
// and the events relay and pg-proxy never published again (faults-broker.kafka-spec.ts).
describe('producerStateLost', () => {
  const refused = (type: string, code: number) => new KafkaJSProtocolError(Object.assign(new Error(type), { type, code, retriable: false }));

  it('names the producer-state errors, bare or wrapped by the retrier', () => {
    expect(producerStateLost(refused('OUT_OF_ORDER_SEQUENCE_NUMBER', 45))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(producerStateLost(refused('UNKNOWN_PRODUCER_ID', 59))).toBe('UNKNOWN_PRODUCER_ID');
    expect(producerStateLost(refused('INVALID_PRODUCER_EPOCH', 47))).toBe('INVALID_PRODUCER_EPOCH');
    expect(producerStateLost(new KafkaJSNumberOfRetriesExceeded(refused('OUT_OF_ORDER_SEQUENCE_NUMBER', 45), { retryCount: 8, retryTime: 1000 }))).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
  });

  it('keeps the producer for anything else: an unreachable broker, a refusal that a retry can pass', () => {
    expect(producerStateLost(new KafkaJSConnectionError('Connection error: read ECONNRESET', { broker: '127.0.0.1:9092' }))).toBeUndefined();
    expect(producerStateLost(refused('NOT_LEADER_FOR_PARTITION', 6))).toBeUndefined();
    expect(producerStateLost(new Error('publish timed out'))).toBeUndefined();
    expect(producerStateLost(undefined)).toBeUndefined();
  });
});
