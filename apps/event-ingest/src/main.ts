import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { eventIngestService } from './event-ingest.service-definition';

void runServiceMain(eventIngestService);
