import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { pgProxyService } from './pg-proxy.service-definition';

void runServiceMain(pgProxyService);
