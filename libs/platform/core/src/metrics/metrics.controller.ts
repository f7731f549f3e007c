import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../service/public.decorator';

// Operational endpoints, documented in docs/operations.md rather than in the API document.
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  @Get()
  async metrics(@Res() res: Response) {
    res.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
