import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { vigilIdPattern } from '@vigil/contracts';
import { DomainException } from '@vigil/platform';

interface PathId {
  pattern: RegExp;
  what: string;
  code: string;
}

const pathId = (prefix: string, what: string, code: string): PathId => ({ pattern: new RegExp(vigilIdPattern(prefix)), what, code });

/**
 * The ids Vigil makes, by the name of the path parameter that carries them. `database_id` is not
 * here: databases are named by whoever registers them (the services check its form).
 */
const PathIds: Readonly<Record<string, PathId>> = {
  policy_id: pathId('pol', 'policy', 'policy_not_found'),
  webhook_id: pathId('wh', 'webhook', 'webhook_not_found'),
  delivery_id: pathId('whd', 'delivery', 'webhook_delivery_not_found'),
  alert_id: pathId('alt', 'alert', 'alert_not_found'),
  destination_id: pathId('dest', 'alert destination', 'alert_destination_not_found'),
  report_id: pathId('rpt', 'report', 'report_not_found'),
  schedule_id: pathId('rps', 'report schedule', 'report_schedule_not_found'),
  event_id: pathId('evt', 'event', 'event_not_found'),
  key_id: pathId('key', 'API key', 'api_key_not_found'),
  user_id: pathId('usr', 'User', 'user_not_found'),
  client_id: pathId('cli', 'OAuth client', 'oauth_client_not_found'),
};

/**
 * A path id that does not have the form of the ids Vigil makes names nothing: 404 with the
 * resource's not-found code, as for a well-formed id that does not exist, without calling the
 * service that owns it (whose RPC boundary would refuse the malformed id as a bad payload).
 */
export class PathIdPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'param' || typeof value !== 'string' || !metadata.data) return value;
    const known = PathIds[metadata.data];
    if (known && !known.pattern.test(value)) throw DomainException.notFound(known.what, value.slice(0, 100), known.code);
    return value;
  }
}
