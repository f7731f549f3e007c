import { Body, Controller, Get, HttpCode, Inject, Param, ParseIntPipe, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiExtension, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  type Checkpoint,
  type CheckpointPage,
  type CheckpointsRequest,
  type ConsistencyProof,
  type ConsistencyProofRequest,
  type InclusionProof,
  type InclusionProofRequest,
  type IntegrityKey,
  IntegrityLimits,
  type LeavesPage,
  type LeavesRequest,
  RpcPatterns,
  type StartVerificationRequest,
  type Verification,
  vigilIdPattern,
} from '@vigil/contracts';
import { DomainException } from '@vigil/platform';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import {
  CheckpointDto,
  CheckpointPageDto,
  CheckpointsQueryDto,
  ConsistencyProofDto,
  ConsistencyProofQueryDto,
  InclusionProofDto,
  InclusionProofQueryDto,
  IntegrityKeyDto,
  IntegrityKeysDto,
  LeavesPageDto,
  LeavesQueryDto,
  StartVerificationDto,
  VerificationDto,
} from './integrity.dto';

const READ = 'read:logs';
const VERIFICATION_ID = new RegExp(vigilIdPattern('ver'));
const ADMIN = 'admin';

/**
 * The tamper-evident event log (docs/integrity.md#api): signing keys, signed checkpoints, proofs,
 * leaves and verification jobs. Shapes are checked here; event-ingest answers.
 */
@ApiTags('integrity')
@ApiBearerAuth()
@ApiResponse({ status: 400, description: 'Malformed JSON, unknown fields, wrong types, out-of-range parameters' })
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'Insufficient scope (read:logs; admin to rotate keys)' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/integrity')
export class IntegrityController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Get('keys')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Every checkpoint signing key ever used, with its validity' })
  @ApiOkResponse({ type: IntegrityKeysDto })
  keys(): Promise<{ data: IntegrityKey[] }> {
    return this.rpc.events.call(RpcPatterns.integrity.keys, {});
  }

  @Post('keys/rotate')
  @RequireScope(ADMIN)
  @ApiExtension('x-required-scope', ADMIN)
  @ApiOperation({ summary: 'Retire the active signing key now and start signing with a new one' })
  @ApiCreatedResponse({ type: IntegrityKeyDto })
  rotate(): Promise<IntegrityKey> {
    return this.rpc.events.call(RpcPatterns.integrity.rotateKey, {});
  }

  @Get('checkpoints/latest')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'The newest signed checkpoint' })
  @ApiOkResponse({ type: CheckpointDto })
  @ApiResponse({ status: 404, description: 'No checkpoint has been signed yet' })
  latest(): Promise<Checkpoint> {
    return this.rpc.events.call(RpcPatterns.integrity.latestCheckpoint, {});
  }

  @Get('checkpoints')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Signed checkpoints, newest first' })
  @ApiOkResponse({ type: CheckpointPageDto })
  checkpoints(@Query() query: CheckpointsQueryDto): Promise<CheckpointPage> {
    return this.rpc.events.call<CheckpointsRequest, CheckpointPage>(RpcPatterns.integrity.checkpoints, {
      page: query.page ?? 1,
      per_page: query.per_page ?? IntegrityLimits.defaultCheckpointsPerPage,
    });
  }

  @Get('checkpoints/:tree_size')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'The checkpoint of one tree size' })
  @ApiParam({ name: 'tree_size', type: Number })
  @ApiOkResponse({ type: CheckpointDto })
  @ApiResponse({ status: 404, description: 'No checkpoint of this size' })
  checkpoint(@Param('tree_size', new ParseIntPipe({ exceptionFactory: () => treeSizeInvalid() })) treeSize: number): Promise<Checkpoint> {
    if (treeSize < 1 || !Number.isSafeInteger(treeSize)) throw treeSizeInvalid();
    return this.rpc.events.call(RpcPatterns.integrity.checkpoint, { tree_size: treeSize });
  }

  @Get('proofs/inclusion')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'RFC 9162 inclusion proof of one event in a checkpointed tree', description: 'leaf_index is the event position (seq - 1).' })
  @ApiOkResponse({ type: InclusionProofDto })
  @ApiResponse({ status: 404, description: 'No such event, or no checkpoint of that size' })
  @ApiResponse({ status: 409, description: 'The event is newer than the checkpoint, or the stored tree cannot serve the proof (damaged)' })
  inclusion(@Query() query: InclusionProofQueryDto): Promise<InclusionProof> {
    return this.rpc.events.call<InclusionProofRequest, InclusionProof>(RpcPatterns.integrity.inclusionProof, { event_id: query.event_id, tree_size: query.tree_size });
  }

  @Get('proofs/consistency')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'RFC 9162 consistency proof between two checkpointed tree sizes' })
  @ApiOkResponse({ type: ConsistencyProofDto })
  @ApiResponse({ status: 404, description: 'No checkpoint of one of the sizes' })
  @ApiResponse({ status: 409, description: 'The stored tree cannot serve the proof (damaged)' })
  consistency(@Query() query: ConsistencyProofQueryDto): Promise<ConsistencyProof> {
    if (query.first > query.second) throw DomainException.validation([{ field: 'first', message: 'must be at most second' }]);
    return this.rpc.events.call<ConsistencyProofRequest, ConsistencyProof>(RpcPatterns.integrity.consistencyProof, { first: query.first, second: query.second });
  }

  @Get('leaves')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Stored events in leaf order with their leaf hashes', description: 'An event retention dropped is null with retained: false.' })
  @ApiOkResponse({ type: LeavesPageDto })
  leaves(@Query() query: LeavesQueryDto): Promise<LeavesPage> {
    return this.rpc.events.call<LeavesRequest, LeavesPage>(RpcPatterns.integrity.leaves, {
      from: query.from ?? 0,
      limit: query.limit ?? IntegrityLimits.defaultLeavesPerPage,
    });
  }

  @Post('verifications')
  @HttpCode(202)
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({
    summary: 'Start a server-side verification of a range of events against a checkpoint',
    description: 'Poll GET /v1/integrity/verifications/{id}; first_failure names the first event that fails and why.',
  })
  @ApiResponse({ status: 202, type: VerificationDto })
  @ApiResponse({ status: 404, description: 'No checkpoint of that size' })
  start(@Body() body: StartVerificationDto): Promise<Verification> {
    return this.rpc.events.call<StartVerificationRequest, Verification>(RpcPatterns.integrity.startVerification, { ...body });
  }

  @Get('verifications/:id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'A verification job and its progress' })
  @ApiOkResponse({ type: VerificationDto })
  @ApiResponse({ status: 404, description: 'No verification with this id' })
  verification(@Param('id') id: string): Promise<Verification> {
    // An id of a form Vigil never makes names no job: 404, as for any unknown id.
    if (!VERIFICATION_ID.test(id)) throw DomainException.notFound('verification', id.slice(0, 100), 'verification_not_found');
    return this.rpc.events.call(RpcPatterns.integrity.verification, { id });
  }
}

function treeSizeInvalid(): DomainException {
  return DomainException.validation([{ field: 'tree_size', message: 'must be a positive integer' }]);
}
