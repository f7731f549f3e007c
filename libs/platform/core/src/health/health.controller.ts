import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../service/public.decorator';
import { Readiness } from './readiness';

// Operational endpoints, documented in docs/operations.md rather than in the API document.
@ApiExcludeController()
@Public()
@Controller('health')
export class HealthController {
  constructor(@Inject(Readiness) private readonly readiness: Readiness) {}

  /** The process is alive and its event loop turns. */
  @Get('live')
  live() {
    return { status: 'ok' };
  }

  /** The service can do its work: its database and broker answer, and it is not shutting down. */
  @Get('ready')
  async ready(@Res() res: Response) {
    const { ready, checks } = await this.readiness.evaluate();
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : this.readiness.isShuttingDown ? 'shutting_down' : 'unavailable',
      checks,
    });
  }
}
