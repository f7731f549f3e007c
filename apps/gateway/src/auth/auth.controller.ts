import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { RpcPatterns, type LoginRequest, type TokenResponse } from '@vigil/contracts';
import { Public } from '@vigil/platform';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { RpcClients } from '../rpc/rpc-clients';

export class LoginDto {
  @IsString()
  @MinLength(3)
  @MaxLength(320)
  email!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  password!: string;
}

@Controller('v1/auth')
export class AuthController {
  constructor(@Inject(RpcClients) private readonly rpc: RpcClients) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  login(@Body() body: LoginDto): Promise<TokenResponse> {
    return this.rpc.auth.call<LoginRequest, TokenResponse>(RpcPatterns.auth.login, { email: body.email, password: body.password });
  }
}
