import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type ApiKeyResponse,
  type CreateApiKeyRequest,
  type CreatedApiKeyResponse,
  type AccessPage,
  type AccessPageRequest,
  type RotateApiKeyRequest,
  type RotatedApiKeyResponse,
  RpcPatterns,
  type TouchApiKeysRequest,
  type VerifiedApiKey,
  type VerifyApiKeyRequest,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { ApiKeysService } from './api-keys.service';

@Controller()
export class ApiKeysController {
  constructor(@Inject(ApiKeysService) private readonly keys: ApiKeysService) {}

  @MessagePattern(RpcPatterns.auth.apiKeysCreate)
  create(@RpcPayload() request: CreateApiKeyRequest): Promise<CreatedApiKeyResponse> {
    return this.keys.create(request);
  }

  @MessagePattern(RpcPatterns.auth.apiKeysList)
  list(@RpcPayload() request: AccessPageRequest): Promise<AccessPage<ApiKeyResponse>> {
    return this.keys.list(request);
  }

  @MessagePattern(RpcPatterns.auth.apiKeysRevoke)
  revoke(@RpcPayload() request: { id: string }): Promise<ApiKeyResponse> {
    return this.keys.revoke(String(request?.id ?? ''));
  }

  @MessagePattern(RpcPatterns.auth.apiKeysRotate)
  rotate(@RpcPayload() request: RotateApiKeyRequest): Promise<RotatedApiKeyResponse> {
    const overlap = Number(request?.overlap_seconds ?? 0);
    return this.keys.rotate({ id: String(request?.id ?? ''), overlap_seconds: Number.isInteger(overlap) && overlap > 0 ? overlap : 0 });
  }

  /** Answers `{key: null}` for an unknown key: RPC cannot carry a bare null. */
  @MessagePattern(RpcPatterns.auth.apiKeysVerify)
  async verify(@RpcPayload() request: VerifyApiKeyRequest): Promise<{ key: VerifiedApiKey | null }> {
    return { key: await this.keys.verify(String(request?.key ?? '')) };
  }

  @MessagePattern(RpcPatterns.auth.apiKeysTouch)
  async touch(@RpcPayload() request: TouchApiKeysRequest): Promise<{ ok: true }> {
    await this.keys.touch(Array.isArray(request?.ids) ? request.ids.map(String) : []);
    return { ok: true };
  }
}
