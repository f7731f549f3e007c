import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { deliveryService } from './delivery.service-definition';

void runServiceMain(deliveryService);
