import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString, Length } from 'class-validator';
import { McpArgs, McpModule, McpProperty, McpTool } from '@nest-mcp/core';

class GreetDto {
  @McpProperty({ description: 'Who to greet' })
  @IsString()
  @Length(1, 50)
  name: string;
}

@Injectable()
class GreetTools {
  @McpTool({ description: 'Greets someone by name' })
  greet(@McpArgs() args: GreetDto) {
    return { greeting: `Hello, ${args.name}!` };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'hello', version: '1.0.0' })], providers: [GreetTools] })
class AppModule {}

const app = await NestFactory.create(AppModule, { bodyParser: false }); // the MCP endpoint reads its own bodies
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
