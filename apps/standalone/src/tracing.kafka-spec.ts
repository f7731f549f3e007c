import { traceScenario } from './testing/trace-scenario';

/** The same trace over the real Kafka broker: trace context travels in Kafka message headers. */
traceScenario('kafka');
