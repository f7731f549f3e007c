import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type PolicyViolationRecorded, policyViolationRecordedValidator, Topics } from '@vigil/contracts';
import { jsonWithHeaderId, MessagingRuntime } from '@vigil/messaging';
import { ViolationsService } from './violations.service';

/** Consumes `policy.violations.v1` from event-ingest's enforcement. */
@Injectable()
export class ViolationsConsumer implements OnModuleInit {
  constructor(
    @Inject(MessagingRuntime) private readonly messaging: MessagingRuntime,
    @Inject(ViolationsService) private readonly violations: ViolationsService,
  ) {}

  onModuleInit() {
    this.messaging.addConsumer<PolicyViolationRecorded>({
      name: 'policy.violations',
      topics: [Topics.policyViolations],
      decode: (message) => {
        const decoded = jsonWithHeaderId(message, (value) => policyViolationRecordedValidator.validate(value));
        return decoded.ok ? { ok: true, messageId: decoded.messageId, value: decoded.value.data } : decoded;
      },
      handle: (manager, messages) => this.violations.record(manager, messages.map((m) => m.value)),
    });
  }
}
