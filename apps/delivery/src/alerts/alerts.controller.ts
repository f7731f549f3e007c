import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type AlertCounts,
  type AlertCountsRequest,
  type AlertIdRequest,
  type AlertListRequest,
  type AlertPage,
  type AlertReport,
  type AlertReportRequest,
  type AlertResponse,
  type EscalateAlertRequest,
  RpcPatterns,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { AlertsService } from './alerts.service';

/**
 * The gateway's calls for /v1/alerts (shapes were validated there; meaning is checked here), and
 * event-ingest's call for the alert figures of a compliance report.
 */
@Controller()
export class AlertsController {
  constructor(@Inject(AlertsService) private readonly alerts: AlertsService) {}

  @MessagePattern(RpcPatterns.alerts.list)
  list(@RpcPayload() request: AlertListRequest): Promise<AlertPage<AlertResponse>> {
    return this.alerts.list(request);
  }

  @MessagePattern(RpcPatterns.alerts.counts)
  counts(@RpcPayload() request: AlertCountsRequest): Promise<AlertCounts> {
    return this.alerts.counts(request);
  }

  @MessagePattern(RpcPatterns.alerts.get)
  get(@RpcPayload() request: AlertIdRequest): Promise<AlertResponse> {
    return this.alerts.get(request.id);
  }

  @MessagePattern(RpcPatterns.alerts.acknowledge)
  acknowledge(@RpcPayload() request: AlertIdRequest): Promise<AlertResponse> {
    return this.alerts.acknowledge(request.id);
  }

  @MessagePattern(RpcPatterns.alerts.resolve)
  resolve(@RpcPayload() request: AlertIdRequest): Promise<AlertResponse> {
    return this.alerts.resolve(request.id);
  }

  @MessagePattern(RpcPatterns.alerts.escalate)
  escalate(@RpcPayload() request: EscalateAlertRequest): Promise<AlertResponse> {
    return this.alerts.escalate(request.id, request.severity);
  }

  @MessagePattern(RpcPatterns.alerts.report)
  report(@RpcPayload() request: AlertReportRequest): Promise<AlertReport> {
    return this.alerts.report(request);
  }
}
