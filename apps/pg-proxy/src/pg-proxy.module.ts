import { type DynamicModule, Module } from '@nestjs/common';
import { MessagingModule } from '@vigil/messaging';
import { PlatformModule, type ServiceContext } from '@vigil/platform';
import { PolicyCache } from './policies/policy-cache';
import { ProxyService } from './proxy/proxy.service';

@Module({})
export class PgProxyModule {
  static forRoot(context: ServiceContext<unknown>): DynamicModule {
    return {
      module: PgProxyModule,
      imports: [PlatformModule.forService(context), MessagingModule.forService()],
      providers: [PolicyCache, ProxyService],
    };
  }
}
