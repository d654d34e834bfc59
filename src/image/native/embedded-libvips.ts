/**
 * The libvips shared library embedded in the single executable, or undefined when running
 * from source (sharp then loads libvips from node_modules). The executable's build replaces
 * this module with one that imports the target architecture's library as a file and records
 * its SHA-256.
 */
export const EMBEDDED_LIBVIPS: { readonly path: string; readonly sha256: string } | undefined = undefined
