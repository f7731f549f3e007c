import type { ConfigOf, ServiceConfigBase, ServiceDefinition } from '@vigil/platform';
import { deliveryConfigSpec } from './config/delivery.config';
import { DeliveryModule } from './delivery.module';

export type DeliveryConfig = ConfigOf<typeof deliveryConfigSpec> & ServiceConfigBase;

export const deliveryService: ServiceDefinition<typeof deliveryConfigSpec> = {
  name: 'delivery',
  configSpec: deliveryConfigSpec,
  defaultPort: 3004,
  rpcPort: 4004,
  usesDatabase: true,
  rootModule: (context) => DeliveryModule.forRoot(context),
};

/** The service's schema and grants, for the migrate command and the role bootstrap of a composed system. */
export { deliveryDatabase } from './database/delivery.database';
