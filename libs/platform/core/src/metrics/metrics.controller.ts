import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Registry } from 'prom-client';
import { Public } from '../service/public.decorator';

@Public()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(Registry) private readonly registry: Registry) {}

  @Get()
  async metrics(@Res() res: Response) {
    res.type(this.registry.contentType).send(await this.registry.metrics());
  }
}
