import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Topics } from '@vigil/contracts';
import { MessagingRuntime } from '@vigil/messaging';
import { decodeAlertSource, type NewAlert } from './alert-sources';
import { AlertsService } from './alerts.service';

/**
 * Consumer group `delivery.alerts`: policy alert requests (alert.requests.v1) and the audit events
 * that raise alerts by themselves (security.anomaly, data.sensitive_access on audit.events.v1).
 * Alerts, lifecycle messages and deliveries are written with the inbox record: exactly once.
 */
@Injectable()
export class AlertsConsumer implements OnModuleInit {
  constructor(
    @Inject(MessagingRuntime) private readonly messaging: MessagingRuntime,
    @Inject(AlertsService) private readonly alerts: AlertsService,
  ) {}

  onModuleInit() {
    this.messaging.addConsumer<NewAlert | null>({
      name: 'delivery.alerts',
      topics: [Topics.alertRequests, Topics.auditEvents],
      decode: decodeAlertSource,
      handle: async (manager, messages) => {
        const alerts = messages.map((m) => m.value).filter((a): a is NewAlert => a !== null);
        if (alerts.length) await this.alerts.raise(manager, alerts);
      },
    });
  }
}
