import type { OpenAPIV3 } from 'openapi-types'

/**
 * The API key schemes, declared in the OpenAPI document only when this server requires keys,
 * so that a generated client asks for one exactly when it is needed.
 */
export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a Bearer token.' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key in X-API-Key.' },
} as const

/** Either scheme satisfies an operation that needs a key. */
export const KEY_REQUIRED: OpenAPIV3.SecurityRequirementObject[] = [{ bearer: [] }, { apiKey: [] }]
