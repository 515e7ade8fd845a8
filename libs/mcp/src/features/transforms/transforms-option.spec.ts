import { Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { IsString } from 'class-validator';
import { hideArguments, McpExecutionContext, McpTool, renameTool, type McpToolTransformation } from '../../index.js';
import { bootMcp, closeMcpApps, dispatch } from '../../../../../test/kit/boot-mcp.js';

class TenantArgs {
  @IsString()
  tenant: string;
}

/** Admits only the tenant "acme", read from the arguments. */
@Injectable()
class AcmeOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (McpExecutionContext.from(context).args as { tenant?: string }).tenant === 'acme';
  }
}

@Injectable()
class TenantTools {
  @UseGuards(AcmeOnly)
  @McpTool({ description: 'Reports for a tenant' })
  report(args: TenantArgs) {
    return args.tenant;
  }
}

async function listedNames(transforms: McpToolTransformation[]): Promise<string[]> {
  const app = await bootMcp([TenantTools, AcmeOnly], { options: { tools: { hideGuarded: true, transforms } } });
  const answer = (await dispatch(app, 'tools/list')) as unknown as { result: { tools: { name: string }[] } };
  return answer.result.tools.map((tool) => tool.name);
}

describe('the transforms option with hideGuardedTools', () => {
  afterEach(closeMcpApps);

  it('probes the guards with the values transforms fix, as a call would run them', async () => {
    expect(await listedNames([])).toEqual([]);
    expect(await listedNames([hideArguments('report', { tenant: 'acme' })])).toEqual(['report']);
    expect(await listedNames([hideArguments('report', { tenant: 'globex' }), renameTool('report', 'tenant_report')])).toEqual([]);
  });
});
