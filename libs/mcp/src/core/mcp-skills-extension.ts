/** Id of the Skills extension (SEP-2640) in `capabilities.extensions`: here so the explorer page (transports) can name it. */
export const MCP_SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';
