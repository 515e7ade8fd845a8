/** Texts of the tool transforms' boot errors. */
export const McpTransformMessages = {
  unknownArgument: (site: string, transform: string, name: string) =>
    `${site}: ${transform} names the argument "${name.slice(0, 60)}", which the tool does not take.`,
  dtoArguments: (site: string) =>
    `${site}: argument transforms need a tool described by a JSON Schema (inputSchema), not a DTO: the DTO is validated on the arguments as sent.`,
} as const;
