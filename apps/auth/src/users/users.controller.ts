import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { type CreateUserRequest, type AccessPage, type AccessPageRequest, RpcPatterns, type UserResponse } from '@vigil/contracts';
import { RpcPayload } from '@vigil/platform';
import { UsersService } from './users.service';

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
}
