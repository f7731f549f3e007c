import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtension, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import {
  type CreatePolicyRequest,
  type DeletePolicyResponse,
  type ListPoliciesRequest,
  type ListViolationsRequest,
  type PolicyEnabledResponse,
  type PolicyListItem,
  type PolicyPage,
  PolicyListLimits,
  type PolicyResponse,
  type PolicyViolation,
  RpcPatterns,
  type TestPolicyRequest,
  type TestPolicyResponse,
  type UpdatePolicyRequest,
  ViolationListLimits,
} from '@vigil/contracts';
import { RequireScope } from '../auth/auth.guard';
import { RpcClients } from '../rpc/rpc-clients';
import {
  CreatePolicyDto,
  ListPoliciesQueryDto,
  ListViolationsQueryDto,
  PolicyDeletedDto,
  PolicyDto,
  PolicyEnabledDto,
  PolicyPageDto,
  TestPolicyDto,
  TestPolicyResultDto,
  UpdatePolicyDto,
  ViolationPageDto,
} from './policies.dto';

const READ = 'read:policies';
const WRITE = 'write:policies';

/** Security policies (docs/policies.md). Shapes are checked here (400); meaning by the policy service (404, 409, 422). */
@ApiTags('policies')
@ApiBearerAuth()
@ApiResponse({ status: 400, description: 'Malformed JSON, missing or unknown fields, wrong types, out-of-range query parameters' })
@ApiResponse({ status: 401, description: 'Missing or invalid credential' })
@ApiResponse({ status: 403, description: 'Insufficient scope (read:policies or write:policies)' })
@ApiResponse({ status: 429, description: 'Rate limited' })
@Controller('v1/policies')
export class PoliciesController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Get()
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List policies (items without config)' })
  @ApiOkResponse({ type: PolicyPageDto })
  list(@Query() query: ListPoliciesQueryDto): Promise<PolicyPage<PolicyListItem>> {
    return this.rpc.policy.call<ListPoliciesRequest, PolicyPage<PolicyListItem>>(RpcPatterns.policies.list, {
      type: query.type,
      enabled: query.enabled,
      enforcement_mode: query.enforcement_mode,
      database_id: query.database_id,
      sort: query.sort,
      page: query.page ?? 1,
      per_page: query.per_page ?? PolicyListLimits.defaultPerPage,
    });
  }

  @Get(':policy_id')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'Get one policy with its config, violation_count and last_violation_at' })
  @ApiOkResponse({ type: PolicyDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  get(@Param('policy_id') id: string): Promise<PolicyResponse> {
    return this.rpc.policy.call(RpcPatterns.policies.get, { id });
  }

  @Post()
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Create a policy (enabled defaults to false)' })
  @ApiCreatedResponse({ type: PolicyDto })
  @ApiResponse({ status: 409, description: 'A policy with this name exists' })
  @ApiResponse({ status: 422, description: 'config is invalid for the type (errors[].field such as config.rules[0].pattern)' })
  create(@Body() body: CreatePolicyDto): Promise<PolicyResponse> {
    return this.rpc.policy.call<CreatePolicyRequest, PolicyResponse>(RpcPatterns.policies.create, { ...body });
  }

  @Put(':policy_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Update the given fields; omitted fields stay unchanged. Answers the whole policy.' })
  @ApiBody({ type: UpdatePolicyDto })
  @ApiOkResponse({ type: PolicyDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  @ApiResponse({ status: 409, description: 'The name is taken, or the policy kept changing concurrently (retry)' })
  @ApiResponse({ status: 422, description: 'config is invalid for the type' })
  update(@Param('policy_id') id: string, @Body() body: UpdatePolicyDto): Promise<PolicyResponse> {
    return this.rpc.policy.call<UpdatePolicyRequest, PolicyResponse>(RpcPatterns.policies.update, { id, changes: { ...body } });
  }

  @Delete(':policy_id')
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Delete permanently; the violation history is kept' })
  @ApiOkResponse({ type: PolicyDeletedDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  delete(@Param('policy_id') id: string): Promise<DeletePolicyResponse> {
    return this.rpc.policy.call(RpcPatterns.policies.delete, { id });
  }

  @Post(':policy_id/enable')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Enable (enforced within a second on every event-ingest instance)' })
  @ApiOkResponse({ type: PolicyEnabledDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  enable(@Param('policy_id') id: string): Promise<PolicyEnabledResponse> {
    return this.rpc.policy.call(RpcPatterns.policies.enable, { id });
  }

  @Post(':policy_id/disable')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Disable; the configuration is kept' })
  @ApiOkResponse({ type: PolicyEnabledDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  disable(@Param('policy_id') id: string): Promise<PolicyEnabledResponse> {
    return this.rpc.policy.call(RpcPatterns.policies.disable, { id });
  }

  @Post(':policy_id/test')
  @HttpCode(200)
  @RequireScope(WRITE)
  @ApiExtension('x-required-scope', WRITE)
  @ApiOperation({ summary: 'Simulate the policy against a sample; nothing is blocked, stored or sent' })
  @ApiOkResponse({ type: TestPolicyResultDto })
  @ApiResponse({ status: 404, description: 'No policy with this id' })
  test(@Param('policy_id') id: string, @Body() body: TestPolicyDto): Promise<TestPolicyResponse> {
    return this.rpc.policy.call<TestPolicyRequest, TestPolicyResponse>(RpcPatterns.policies.test, { id, sample: { ...body } });
  }

  @Get(':policy_id/violations')
  @RequireScope(READ)
  @ApiExtension('x-required-scope', READ)
  @ApiOperation({ summary: 'List violations, newest first (also of a deleted policy)' })
  @ApiOkResponse({ type: ViolationPageDto })
  @ApiResponse({ status: 404, description: 'No policy ever had this id' })
  violations(@Param('policy_id') id: string, @Query() query: ListViolationsQueryDto): Promise<PolicyPage<PolicyViolation>> {
    return this.rpc.policy.call<ListViolationsRequest, PolicyPage<PolicyViolation>>(RpcPatterns.policies.violations, {
      policy_id: id,
      start_date: query.start_date,
      end_date: query.end_date,
      severity: query.severity?.split(','),
      user: query.user,
      page: query.page ?? 1,
      limit: query.limit ?? ViolationListLimits.defaultLimit,
    });
  }
}
