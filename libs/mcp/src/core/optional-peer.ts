/** An optional peer dependency imported by `importer`: undefined when it is not installed; any other failure rethrown. */
export async function importOptionalPeer<T>(importer: () => Promise<T>): Promise<T | undefined> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}
