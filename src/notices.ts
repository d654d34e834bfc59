/**
 * THIRD-PARTY-NOTICES inside the single executable (`--licenses` prints it), or undefined when
 * running from source. The executable's build generates the file from the installed packages'
 * licence files and replaces this module with one that imports it as a file.
 */
export const EMBEDDED_NOTICES: string | undefined = undefined
