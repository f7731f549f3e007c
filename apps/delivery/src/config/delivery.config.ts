import { encryptionConfigSpec } from '@vigil/platform';

export const deliveryConfigSpec = {
  ...encryptionConfigSpec,
};
