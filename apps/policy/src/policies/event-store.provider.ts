import { EventStore } from '@vigil/database';
import { POLICY_SCHEMA } from '../database/schema';

export const POLICY_EVENT_STORE = Symbol('POLICY_EVENT_STORE');

export const policyEventStoreProvider = { provide: POLICY_EVENT_STORE, useFactory: () => new EventStore(POLICY_SCHEMA) };
