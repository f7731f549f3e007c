import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { gatewayService } from './gateway.service-definition';

void runServiceMain(gatewayService);
