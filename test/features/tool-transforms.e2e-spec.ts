import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Controller, Get, Injectable, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import {
  describeTool,
  hideArguments,
  McpArgs,
  McpExecutionContext,
  McpModule,
  McpRoute,
  McpTaskSupport,
  McpTool,
  namespaceTools,
  renameArguments,
  renameTool,
  type McpConfigurationError,
  type McpToolTransformation,
} from '@nest-mcp/core';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { z } from 'zod';
import { bootError } from '../kit/boot-mcp.js';
import { initApp, listen, type RunningApp } from '../kit/apps.js';
import { listenWithSdkClient, type AppWithSdkClient } from '../kit/sdk-client.js';
import { call2026 } from '../rev-2026-07-28/support/requests.js';

class SearchDto {
  @IsString()
  @MinLength(2)
  query: string;

  @IsString()
  @IsIn(['acme', 'globex'])
  tenant: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  limit?: number;
}

/** What the tools' guard saw: transforms hand the tool's own arguments to every stage. */
const guardSaw: unknown[] = [];

@Injectable()
class RecordingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    guardSaw.push(McpExecutionContext.from(context).args);
    return true;
  }
}

/** Code the transforms must not touch: names, descriptions and arguments as the team wrote them. */
@Injectable()
class TicketTools {
  @UseGuards(RecordingGuard)
  @McpTool({ description: 'Search tickets' })
  searchTickets(args: SearchDto) {
    return { query: args.query, tenant: args.tenant, limit: args.limit ?? 10 };
  }

  @McpTool({ description: 'Counts tickets', input: z.object({ status: z.enum(['open', 'closed']), tenant: z.string().min(2) }) })
  countTickets(@McpArgs() args: { status: string; tenant: string }) {
    return `${args.tenant}:${args.status}`;
  }
}

@Injectable()
class ReportTools {
  @McpTool({ description: 'A long report, run only as a task', job: true })
  @McpTaskSupport({ required: true })
  monthlyReport() {
    return 'done';
  }
}

@Injectable()
class BillingTools {
  @McpTool({ description: 'Lists invoices' })
  listInvoices() {
    return [];
  }

  @McpTool({
    description: 'Gets an invoice',
    inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^INV-' } }, required: ['id'] },
  })
  getInvoice(args: { id: string }) {
    return { id: args.id };
  }
}

const TRANSFORMS: McpToolTransformation[] = [
  renameTool('search_tickets', 'find_tickets'),
  describeTool('find_tickets', 'Finds the support tickets of the company'),
  hideArguments('find_tickets', { tenant: 'acme' }),
  renameArguments('find_tickets', { query: 'text' }),
  hideArguments('count_tickets', { tenant: 'x' }),
  namespaceTools('billing', { include: { provider: BillingTools } }),
  describeTool('billing_*', (text) => `${text} (billing)`),
  renameTool('monthly_report', 'report_month'),
];

describe('tool transforms as configuration (official SDK client)', () => {
  let app: RunningApp;
  let client: Client;
  let connected: AppWithSdkClient | undefined;

  beforeAll(async () => {
    connected = await listenWithSdkClient({ name: 'tickets', version: '1.0.0', tools: { transforms: TRANSFORMS } }, [
      TicketTools,
      BillingTools,
      ReportTools,
      RecordingGuard,
    ]);
    ({ app, client } = connected);
  });

  afterAll(() => connected?.close());

  it('lists the tools renamed, described, namespaced and without their hidden arguments', async () => {
    const tools = Object.fromEntries((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    // The job tools the library adds for a job tool (get_job_status, cancel_job) come after, untransformed.
    expect(Object.keys(tools)).toEqual([
      'find_tickets',
      'count_tickets',
      'billing_list_invoices',
      'billing_get_invoice',
      'report_month',
      'get_job_status',
      'cancel_job',
    ]);
    expect(tools.find_tickets.description).toBe('Finds the support tickets of the company');
    expect(Object.keys(tools.find_tickets.inputSchema.properties ?? {})).toEqual(['text', 'limit']);
    expect(tools.find_tickets.inputSchema.required).toEqual(['text']);
    expect(Object.keys(tools.count_tickets.inputSchema.properties ?? {})).toEqual(['status']);
    expect(tools.billing_get_invoice.description).toBe('Gets an invoice (billing)');
  });

  it('calls the tool with its own argument names and the fixed value, whatever the caller sends for a hidden one', async () => {
    guardSaw.length = 0;
    const result = await client.callTool({ name: 'find_tickets', arguments: { text: 'printer', tenant: 'globex', limit: 5 } });
    expect(result.structuredContent).toEqual({ status: 'success', data: { query: 'printer', tenant: 'acme', limit: 5 } });
    expect(guardSaw).toEqual([{ query: 'printer', tenant: 'acme', limit: 5 }]);
  });

  it('validates against the tool own schema and names failing fields as the caller sees them', async () => {
    const refused = await client.callTool({ name: 'find_tickets', arguments: { text: 'p', limit: 500 } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: ['text', 'limit'] } });
  });

  it('checks a fixed value with the rest: one the tool refuses fails every call (here a Standard Schema tool)', async () => {
    const refused = await client.callTool({ name: 'count_tickets', arguments: { status: 'open' } });
    expect(refused.structuredContent).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: ['tenant'] } });
  });

  it('calls namespaced tools under their new names only', async () => {
    const invoice = await client.callTool({ name: 'billing_get_invoice', arguments: { id: 'INV-7' } });
    expect(invoice.structuredContent).toEqual({ status: 'success', data: { id: 'INV-7' } });
    await expect(client.callTool({ name: 'get_invoice', arguments: { id: 'INV-7' } })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: 'search_tickets', arguments: { query: 'x' } })).rejects.toMatchObject({ code: -32602 });
  });

  it('keeps what other decorators declare about a renamed tool: a task-only job stays task-only (2026-07-28)', async () => {
    const refused = await call2026(app.url, 1, 'tools/call', { name: 'report_month', arguments: {} }, { capabilities: {} });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });
});

describe('tool transform boot errors', () => {
  async function bootWith(transforms: McpToolTransformation[]): Promise<McpConfigurationError> {
    class BootModule {}
    const mcp = McpModule.forRoot({ name: 'bad', version: '1.0.0', tools: { transforms } });
    return (await bootError(() =>
      initApp([{ module: BootModule, imports: [mcp], providers: [TicketTools, BillingTools, RecordingGuard] }]),
    )) as McpConfigurationError;
  }

  it('refuses a transform naming an unknown tool', async () => {
    const error = await bootWith([describeTool('search_ticket', 'typo')]);
    expect(error.code).toBe('MCP_ERR_TRANSFORM_TOOL_UNKNOWN');
    expect(error.message).toContain('"tools.transforms[0]"');
    expect(error.message).toContain('"search_ticket"');
  });

  it('refuses two tools renamed to one name, naming both', async () => {
    const error = await bootWith([renameTool('list_invoices', 'invoices'), renameTool('get_invoice', 'invoices')]);
    expect(error.code).toBe('MCP_ERR_TRANSFORM_NAME_CLASH');
    expect(error.message).toContain('BillingTools#listInvoices and BillingTools#getInvoice');
  });

  it('refuses hiding a required argument without a fixed value', async () => {
    const error = await bootWith([hideArguments('search_tickets', { tenant: undefined })]);
    expect(error.code).toBe('MCP_ERR_TRANSFORM_REQUIRED_ARGUMENT_HIDDEN');
    expect(error.message).toContain('TicketTools#searchTickets');
  });

  it('refuses a transforms option that is not a list of transformations', async () => {
    const error = await bootWith([{ rename: 'x' } as unknown as McpToolTransformation]);
    expect(error.code).toBe('MCP_ERR_OPTION_INVALID');
  });
});

@Controller('notes')
class NotesController {
  @McpRoute({ description: 'Lists the notes' })
  @Get()
  listNotes() {
    return ['first'];
  }
}

describe('a { provider } selector on controller routes', () => {
  it("picks a controller's route tools by its class: the route tool is renamed and still runs its route", async () => {
    class NotesModule {}
    const transforms = [namespaceTools('kb', { include: { provider: NotesController } })];
    const app = await listen([
      {
        module: NotesModule,
        imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', tools: { transforms } })],
        controllers: [NotesController],
      },
    ]);
    const client = new Client({ name: 'notes-e2e', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(app.url)));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['kb_list_notes']);
      expect((await client.callTool({ name: 'kb_list_notes', arguments: {} })).structuredContent).toEqual({
        status: 'success',
        data: ['first'],
      });
    } finally {
      await client.close();
      await app.close();
    }
  });
});
