import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  type AccessPage,
  type AccessPageRequest,
  type ChangeOwnPasswordRequest,
  type CreateUserRequest,
  type LogoutRequest,
  type ResetPasswordRequest,
  type RevokedSessionsResponse,
  type Revoking,
  RpcPatterns,
  type UpdateUserRequest,
  type UserIdRequest,
  type UserResponse,
} from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { UsersService } from './users.service';

const str = (value: unknown) => String(value ?? '');

@Controller()
export class UsersController {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  @MessagePattern(RpcPatterns.auth.usersCreate)
  create(@RpcPayload() request: CreateUserRequest): Promise<UserResponse> {
    return this.users.create(request);
  }

  @MessagePattern(RpcPatterns.auth.usersList)
  list(@RpcPayload() request: AccessPageRequest): Promise<AccessPage<UserResponse>> {
    return this.users.list(request);
  }

  @MessagePattern(RpcPatterns.auth.usersGet)
  get(@RpcPayload() request: UserIdRequest): Promise<UserResponse> {
    return this.users.get(str(request?.id));
  }

  @MessagePattern(RpcPatterns.auth.usersUpdate)
  update(@RpcPayload() request: UpdateUserRequest): Promise<Revoking<UserResponse>> {
    return this.users.update({
      id: str(request?.id),
      scopes: Array.isArray(request?.scopes) ? request.scopes.map(String) : undefined,
      disabled: typeof request?.disabled === 'boolean' ? request.disabled : undefined,
    });
  }

  @MessagePattern(RpcPatterns.auth.usersDelete)
  delete(@RpcPayload() request: UserIdRequest): Promise<Revoking<UserResponse>> {
    return this.users.delete(str(request?.id));
  }

  @MessagePattern(RpcPatterns.auth.usersResetPassword)
  resetPassword(@RpcPayload() request: ResetPasswordRequest): Promise<Revoking<RevokedSessionsResponse>> {
    return this.users.resetPassword({ id: str(request?.id), password: str(request?.password) });
  }

  @MessagePattern(RpcPatterns.auth.usersChangeOwnPassword)
  changeOwnPassword(@RpcPayload() request: ChangeOwnPasswordRequest): Promise<Revoking<RevokedSessionsResponse>> {
    return this.users.changeOwnPassword({
      user_id: str(request?.user_id),
      current_password: str(request?.current_password),
      new_password: str(request?.new_password),
      keep_session_id: request?.keep_session_id ? String(request.keep_session_id) : null,
    });
  }

  @MessagePattern(RpcPatterns.auth.sessionsRevokeAll)
  revokeSessions(@RpcPayload() request: UserIdRequest): Promise<Revoking<RevokedSessionsResponse>> {
    return this.users.revokeSessions(str(request?.id));
  }

  @MessagePattern(RpcPatterns.auth.sessionsLogout)
  logout(@RpcPayload() request: LogoutRequest): Promise<RevokedSessionsResponse> {
    return this.users.logout({ user_id: str(request?.user_id), session_id: str(request?.session_id) });
  }
}
