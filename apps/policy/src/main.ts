import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { policyService } from './policy.service-definition';

void runServiceMain(policyService);
