import { McpConfigurationError } from '../../core/errors/mcp-configuration.error.js';
import { loadOpenApiDocument } from './openapi-document.loader.js';
import { thrown } from '../../../../../test/kit/boot-mcp.js';
import { openApiPlans } from './openapi-operations.js';
import { loadOpenApiParser } from './openapi-parser.loader.js';
import { MAX_SCHEMA_NODES } from './openapi-schema.js';

const info = { title: 'Pets', version: '1.0.0' };

/** A 3.0 document through the real parser (upgrade to 3.1, validate, dereference), then planned. */
async function plansOf(document: Record<string, unknown>, source: Record<string, unknown> = {}) {
  const { document: loaded } = await loadOpenApiDocument({ document, ...source }, await loadOpenApiParser());
  return openApiPlans(loaded, { document, ...source }, source.name === 'x' ? '"x" (an object)' : '"pets"');
}

const petsDocument = () => ({
  openapi: '3.0.3',
  info,
  paths: {
    '/pets/{petId}': {
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' }, description: 'The pet' }],
      get: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'One pet',
        parameters: [{ name: 'X-Trace', in: 'header', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
      put: {
        operationId: 'updatePet',
        tags: ['pets'],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
        responses: { '200': { description: 'ok' } },
      },
      delete: { operationId: 'deletePet', tags: ['admin'], responses: { '204': { description: 'gone' } } },
    },
    '/pets/{petId}/photo': {
      post: {
        operationId: 'uploadPhoto',
        tags: ['pets'],
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'integer', readOnly: true },
          name: { type: 'string' },
          nickname: { type: 'string', nullable: true },
          parent: { $ref: '#/components/schemas/Pet' },
        },
      },
    },
  },
});

describe('openApiPlans', () => {
  it('flattens path, header and body into one inputSchema; a 3.0 nullable becomes a null type; $refs resolved, recursion bounded', async () => {
    const { plans } = await plansOf(petsDocument());
    const byName = Object.fromEntries(plans.map((plan) => [plan.name, plan]));
    expect(Object.keys(byName).sort()).toEqual(['delete_pet', 'get_pet', 'update_pet']);

    expect(byName.get_pet.inputSchema).toEqual({
      type: 'object',
      properties: { petId: { type: 'integer', description: 'The pet' }, 'X-Trace': { type: 'string' } },
      required: ['petId'],
    });
    expect(byName.get_pet).toMatchObject({
      verb: 'GET',
      path: '/pets/{petId}',
      description: 'One pet',
      annotations: { readOnlyHint: true },
    });
    const pet = byName.get_pet.outputSchema as any;
    expect(pet.properties.nickname).toEqual({ type: ['string', 'null'] });
    expect(pet.properties.parent.properties.name).toEqual({ type: 'string' });
    expect(pet.properties.parent.properties.parent).toEqual({});

    const update = byName.update_pet;
    expect(Object.keys(update.inputSchema.properties as object)).toEqual(['petId', 'name', 'nickname', 'parent']); // readOnly id left out
    expect(update.inputSchema.required).toEqual(['petId', 'name']);
    expect(update.annotations).toEqual({ idempotentHint: true });
    expect(update.arguments.map((argument) => argument.in)).toEqual(['path', 'body-property', 'body-property', 'body-property']);
    expect(byName.delete_pet.annotations).toEqual({ destructiveHint: true });
    expect(byName.delete_pet.outputSchema).toBeUndefined();
  });

  it('skips a multipart operation with its reason, and includes / excludes by tag and operation', async () => {
    const all = await plansOf(petsDocument());
    expect(all.skipped).toEqual([
      { site: 'OpenAPI "pets" uploadPhoto (POST /pets/{petId}/photo)', reason: 'its request body is multipart/form-data, not JSON' },
    ]);

    const pets = await plansOf(petsDocument(), { include: { tags: ['pets'] }, exclude: { operations: ['update_pet', 'uploadPhoto'] } });
    expect(pets.plans.map((plan) => plan.name)).toEqual(['get_pet']);
    expect(pets.skipped).toEqual([]);

    const prefixed = await plansOf(petsDocument(), { name: 'zoo', include: { operations: ['deletePet'] } });
    expect(prefixed.plans.map((plan) => plan.name)).toEqual(['zoo_delete_pet']);
  });

  it('fails the boot when a selection names an operation or tag the document lacks', async () => {
    const error = await plansOf(petsDocument(), { exclude: { operations: ['getPets'] } }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(McpConfigurationError);
    expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_SELECTION_UNKNOWN' });
    expect((error as Error).message).toContain('exclude.operations names "getPets"');
  });

  it('fails the boot on an argument name two places use, naming both', async () => {
    const document = petsDocument();
    (document.paths['/pets/{petId}'].put.requestBody.content['application/json'].schema as any) = {
      type: 'object',
      properties: { petId: { type: 'integer' }, name: { type: 'string' } },
    };
    const error = await plansOf(document).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_ARGUMENT_CLASH' });
    expect((error as Error).message).toContain(
      'OpenAPI "pets" updatePet (PUT /pets/{petId}): the tool argument "petId" would be both the path parameter and the body property',
    );
  });

  it('fails the boot on a schema too large even with its shared schemas under $defs, naming the operation', () => {
    const properties = Object.fromEntries(Array.from({ length: MAX_SCHEMA_NODES + 1 }, (_, index) => [`p${index}`, { type: 'string' }]));
    const document = {
      openapi: '3.1.0',
      info,
      paths: {
        '/wide': {
          post: { operationId: 'postWide', requestBody: { content: { 'application/json': { schema: { type: 'object', properties } } } } },
        },
      },
    };
    const error = thrown(() => openApiPlans(document, { document }, '"wide"'));
    expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_SCHEMA_TOO_LARGE' });
    expect(error.message).toContain(`OpenAPI "wide" postWide (POST /wide): its input schema holds more than ${MAX_SCHEMA_NODES} nodes`);
  });

  it('names an operation without operationId after its verb and path; a body that is not an object is the argument body', async () => {
    const { plans } = await plansOf({
      openapi: '3.1.0',
      info,
      paths: {
        '/tags': {
          post: {
            requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
            responses: { '201': { description: 'ok' } },
          },
        },
      },
    });
    expect(plans[0]).toMatchObject({
      name: 'post_tags',
      description: 'POST /tags',
      inputSchema: { type: 'object', properties: { body: { type: 'array', items: { type: 'string' } } }, required: ['body'] },
    });
  });
});

describe('loadOpenApiDocument', () => {
  it('refuses an invalid document, a dangling $ref and a missing file with a coded boot error naming the source', async () => {
    const parser = await loadOpenApiParser();
    await expect(loadOpenApiDocument({ name: 'x', document: { info } }, parser)).rejects.toMatchObject({ code: 'MCP_ERR_OPENAPI_INVALID' });
    const dangling = {
      openapi: '3.1.0',
      info,
      paths: { '/a': { get: { responses: { '200': { $ref: '#/components/responses/Nope' } } } } },
    };
    const error = await plansOf(dangling, { name: 'x' }).catch((thrown: unknown) => thrown);
    expect(error).toMatchObject({ code: 'MCP_ERR_OPENAPI_INVALID' });
    expect((error as Error).message).toBe(
      'The OpenAPI document "x" (an object) is not a valid OpenAPI 3.0 or 3.1 document: OpenAPI "x" (GET /a): can\'t resolve the reference #/components/responses/Nope.',
    );
    await expect(loadOpenApiDocument({ document: '/nonexistent/openapi.json' }, parser)).rejects.toMatchObject({
      code: 'MCP_ERR_OPENAPI_UNREACHABLE',
      message: expect.stringContaining('/nonexistent/openapi.json could not be read: no such file'),
    });
  });

  it('says how to install the parser when it is missing', async () => {
    const missing = () =>
      Promise.reject(Object.assign(new Error("Cannot find package '@scalar/openapi-parser'"), { code: 'ERR_MODULE_NOT_FOUND' }));
    await expect(loadOpenApiParser(missing)).rejects.toMatchObject({ code: 'MCP_ERR_OPENAPI_PARSER_MISSING' });
  });
});
