/**
 * Setup file of jest's "fastify" project (jest.config.js): every app the kit boots in this run, and the spawned
 * weather server, use @nestjs/platform-fastify.
 */
process.env.MCP_TEST_HTTP_ADAPTER = 'fastify';
