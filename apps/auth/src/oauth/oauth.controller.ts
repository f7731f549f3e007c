import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type AuthorizeBeginRequest,
  type AuthorizeCompleteOutcome,
  type AuthorizeCompleteRequest,
  type AuthorizeOutcome,
  type CreatedOAuthClientResponse,
  type CreateOAuthClientRequest,
  type OAuthClientResponse,
  type AccessPage,
  type AccessPageRequest,
  type RevokeOutcome,
  type RevokeRequest,
  type RotatedOAuthClientSecretResponse,
  type RotateOAuthClientSecretRequest,
  RpcPatterns,
  type TokenOutcome,
  type TokenRequest,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { OAuthService } from './oauth.service';

/** OAuth answers travel as values (never as problems): the gateway renders them in RFC 6749 form. */
@Controller()
export class OAuthController {
  constructor(@Inject(OAuthService) private readonly oauth: OAuthService) {}

  @MessagePattern(RpcPatterns.auth.oauthClientsCreate)
  createClient(@RpcPayload() request: CreateOAuthClientRequest): Promise<CreatedOAuthClientResponse> {
    return this.oauth.registerClient(request);
  }

  @MessagePattern(RpcPatterns.auth.oauthClientsList)
  listClients(@RpcPayload() request: AccessPageRequest): Promise<AccessPage<OAuthClientResponse>> {
    return this.oauth.listClients(request);
  }

  @MessagePattern(RpcPatterns.auth.oauthClientsDelete)
  deleteClient(@RpcPayload() request: { client_id: string }): Promise<OAuthClientResponse> {
    return this.oauth.deleteClient(String(request?.client_id ?? ''));
  }

  @MessagePattern(RpcPatterns.auth.oauthClientsRotateSecret)
  rotateSecret(@RpcPayload() request: RotateOAuthClientSecretRequest): Promise<RotatedOAuthClientSecretResponse> {
    const overlap = request?.overlap_seconds;
    return this.oauth.rotateClientSecret({
      client_id: String(request?.client_id ?? ''),
      overlap_seconds: typeof overlap === 'number' && Number.isInteger(overlap) && overlap >= 0 ? overlap : undefined,
    });
  }

  @MessagePattern(RpcPatterns.auth.oauthAuthorize)
  authorize(@RpcPayload() request: AuthorizeBeginRequest): Promise<AuthorizeOutcome> {
    return this.oauth.authorize({ params: request?.params ?? {}, user: request?.user });
  }

  @MessagePattern(RpcPatterns.auth.oauthAuthorizeComplete)
  complete(@RpcPayload() request: AuthorizeCompleteRequest): Promise<AuthorizeCompleteOutcome> {
    return this.oauth.completeAuthorization(request);
  }

  @MessagePattern(RpcPatterns.auth.oauthToken)
  token(@RpcPayload() request: TokenRequest): Promise<TokenOutcome> {
    return this.oauth.token({ client: request?.client ?? { methods: [] }, form: request?.form ?? {} });
  }

  @MessagePattern(RpcPatterns.auth.oauthRevoke)
  revoke(@RpcPayload() request: RevokeRequest): Promise<RevokeOutcome> {
    return this.oauth.revoke({ client: request?.client ?? { methods: [] }, token: request?.token, token_type_hint: request?.token_type_hint });
  }
}
