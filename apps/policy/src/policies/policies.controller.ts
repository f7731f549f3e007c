import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type CreatePolicyRequest,
  type DeletePolicyResponse,
  type ListPoliciesRequest,
  type ListViolationsRequest,
  type PolicyEnabledResponse,
  type PolicyIdRequest,
  type PolicyListItem,
  type PolicyPage,
  type PolicyResponse,
  type PolicySigningKeysResponse,
  type PolicySnapshotsResponse,
  type PolicyViolation,
  RpcPatterns,
  type TestPolicyRequest,
  type TestPolicyResponse,
  type UpdatePolicyRequest,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { SnapshotSigner } from '../signing/snapshot-signer';
import { ViolationsService } from '../violations/violations.service';
import { PoliciesService } from './policies.service';

/** The policy service's RPC surface; the gateway has validated shapes and scopes. */
@Controller()
export class PoliciesController {
  constructor(
    @Inject(PoliciesService) private readonly policies: PoliciesService,
    @Inject(ViolationsService) private readonly violations: ViolationsService,
    @Inject(SnapshotSigner) private readonly signer: SnapshotSigner,
  ) {}

  @MessagePattern(RpcPatterns.policies.list)
  list(@RpcPayload() request: ListPoliciesRequest): Promise<PolicyPage<PolicyListItem>> {
    return this.policies.list(request);
  }

  @MessagePattern(RpcPatterns.policies.get)
  get(@RpcPayload() request: PolicyIdRequest): Promise<PolicyResponse> {
    return this.policies.get(request.id);
  }

  @MessagePattern(RpcPatterns.policies.create)
  create(@RpcPayload() request: CreatePolicyRequest): Promise<PolicyResponse> {
    return this.policies.create(request);
  }

  @MessagePattern(RpcPatterns.policies.update)
  update(@RpcPayload() request: UpdatePolicyRequest): Promise<PolicyResponse> {
    return this.policies.update(request.id, request.changes);
  }

  @MessagePattern(RpcPatterns.policies.delete)
  delete(@RpcPayload() request: PolicyIdRequest): Promise<DeletePolicyResponse> {
    return this.policies.delete(request.id);
  }

  @MessagePattern(RpcPatterns.policies.enable)
  enable(@RpcPayload() request: PolicyIdRequest): Promise<PolicyEnabledResponse> {
    return this.policies.setEnabled(request.id, true);
  }

  @MessagePattern(RpcPatterns.policies.disable)
  disable(@RpcPayload() request: PolicyIdRequest): Promise<PolicyEnabledResponse> {
    return this.policies.setEnabled(request.id, false);
  }

  @MessagePattern(RpcPatterns.policies.test)
  test(@RpcPayload() request: TestPolicyRequest): Promise<TestPolicyResponse> {
    return this.policies.test(request);
  }

  @MessagePattern(RpcPatterns.policies.violations)
  listViolations(@RpcPayload() request: ListViolationsRequest): Promise<PolicyPage<PolicyViolation>> {
    return this.violations.list(request);
  }

  /** Enforcement caches (event-ingest) load every policy's state at start. */
  @MessagePattern(RpcPatterns.policies.snapshots)
  async snapshots(): Promise<PolicySnapshotsResponse> {
    return { policies: await this.policies.snapshots() };
  }

  /** Enforcement points verify the snapshots on policy.events.v1 with these keys. */
  @MessagePattern(RpcPatterns.policies.signingKeys)
  async signingKeys(): Promise<PolicySigningKeysResponse> {
    return { keys: await this.signer.keys() };
  }
}
