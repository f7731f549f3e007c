import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type Checkpoint,
  type CheckpointPage,
  type CheckpointsRequest,
  type ConsistencyProof,
  type ConsistencyProofRequest,
  type InclusionProof,
  type InclusionProofRequest,
  type IntegrityKey,
  type LeavesPage,
  type LeavesRequest,
  RpcPatterns,
  type StartVerificationRequest,
  type Verification,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { IntegrityService } from './integrity.service';
import { VerificationJobs } from './verification.service';

/** RPC handlers for the gateway's /v1/integrity; the gateway validated the shapes. */
@Controller()
export class IntegrityController {
  constructor(
    @Inject(IntegrityService) private readonly integrity: IntegrityService,
    @Inject(VerificationJobs) private readonly jobs: VerificationJobs,
  ) {}

  @MessagePattern(RpcPatterns.integrity.keys)
  keys(): Promise<{ data: IntegrityKey[] }> {
    return this.integrity.listKeys();
  }

  @MessagePattern(RpcPatterns.integrity.rotateKey)
  rotateKey(): Promise<IntegrityKey> {
    return this.integrity.rotateKey();
  }

  @MessagePattern(RpcPatterns.integrity.latestCheckpoint)
  latestCheckpoint(): Promise<Checkpoint> {
    return this.integrity.latestCheckpoint();
  }

  @MessagePattern(RpcPatterns.integrity.checkpoints)
  checkpoints(@RpcPayload() request: CheckpointsRequest): Promise<CheckpointPage> {
    return this.integrity.checkpoints(request);
  }

  @MessagePattern(RpcPatterns.integrity.checkpoint)
  checkpoint(@RpcPayload() request: { tree_size: number }): Promise<Checkpoint> {
    return this.integrity.checkpoint(Number(request?.tree_size));
  }

  @MessagePattern(RpcPatterns.integrity.inclusionProof)
  inclusionProof(@RpcPayload() request: InclusionProofRequest): Promise<InclusionProof> {
    return this.integrity.inclusionProof(request);
  }

  @MessagePattern(RpcPatterns.integrity.consistencyProof)
  consistencyProof(@RpcPayload() request: ConsistencyProofRequest): Promise<ConsistencyProof> {
    return this.integrity.consistencyProof(request);
  }

  @MessagePattern(RpcPatterns.integrity.leaves)
  leaves(@RpcPayload() request: LeavesRequest): Promise<LeavesPage> {
    return this.integrity.leaves(request);
  }

  @MessagePattern(RpcPatterns.integrity.startVerification)
  startVerification(@RpcPayload() request: StartVerificationRequest): Promise<Verification> {
    return this.jobs.start(request ?? {});
  }

  @MessagePattern(RpcPatterns.integrity.verification)
  verification(@RpcPayload() request: { id: string }): Promise<Verification> {
    return this.jobs.get(String(request?.id ?? ''));
  }
}
