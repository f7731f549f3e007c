import 'reflect-metadata';
import { runServiceMain } from '@vigil/platform';
import { authService } from './auth.service-definition';

void runServiceMain(authService);
